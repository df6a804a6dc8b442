import { describe, expect, it } from 'vitest';
import { EMPTY_CONNECT_FORM, fieldsFor, toCreateChannelInput, validateConnectForm } from './channels';

const CLIENT = '00000000-0000-4000-8000-000000000001';

describe('the connect-channel form', () => {
  it('asks each kind for its own fields', () => {
    expect(fieldsFor('whatsapp')).toEqual(['name', 'externalId', 'accessToken', 'appSecret', 'verifyToken']);
    expect(fieldsFor('webchat')).toEqual(['name']);
    expect(fieldsFor('api')).toEqual(['name', 'callbackUrl', 'signingSecret']);
  });

  it('maps the external id to the kind’s own field and leaves empty optional fields to the server', () => {
    const form = { ...EMPTY_CONNECT_FORM, kind: 'messenger' as const, externalId: '1234', accessToken: 'token-12345', appSecret: 'secret-12345' };
    expect(toCreateChannelInput(CLIENT, form)).toEqual({ kind: 'messenger', clientId: CLIENT, pageId: '1234', accessToken: 'token-12345', appSecret: 'secret-12345' });
    expect(toCreateChannelInput(CLIENT, { ...EMPTY_CONNECT_FORM, kind: 'webchat', name: 'Site' })).toEqual({ kind: 'webchat', clientId: CLIENT, name: 'Site' });
  });

  it('reports the contract’s messages on the form’s fields', () => {
    const result = validateConnectForm(CLIENT, { ...EMPTY_CONNECT_FORM, kind: 'whatsapp', accessToken: 'short' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.externalId).toBe('Please enter the phone number id');
    expect(result.errors.accessToken).toBe('Access token looks too short');
    expect(result.errors.appSecret).toBeDefined();
    expect(result.errors.verifyToken).toBeUndefined();

    const api = validateConnectForm(CLIENT, { ...EMPTY_CONNECT_FORM, kind: 'api', callbackUrl: 'ftp://x' });
    expect(api.ok).toBe(false);
    if (!api.ok) expect(api.errors.callbackUrl).toBe('Please enter an http(s) callback URL');

    expect(validateConnectForm(CLIENT, { ...EMPTY_CONNECT_FORM, kind: 'webchat' }).ok).toBe(true);
  });
});
