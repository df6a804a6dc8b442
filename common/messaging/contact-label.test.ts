import { describe, expect, it } from 'vitest';
import { contactLabel } from './contact-label';

describe('contactLabel', () => {
  it('uses the name when there is one', () => {
    expect(contactLabel({ name: ' Dana ', externalId: '15550001' }, 'whatsapp')).toBe('Dana');
    expect(contactLabel({ name: 'Ana', externalId: 'v_2SaNN9aAXrnSJZWrAg7bBQ' }, 'webchat')).toBe('Ana');
  });

  it('names an anonymous website visitor by the end of its token, upper-cased', () => {
    expect(contactLabel({ name: null, externalId: 'v_2SaNN9aAXrnSJZWrAg7bBQ' }, 'webchat')).toBe('Website visitor 7BBQ');
    expect(contactLabel({ name: '  ', externalId: 'v_abcdwxyz' }, 'webchat')).toBe('Website visitor WXYZ');
  });

  it('shows a WhatsApp id as the phone number it is', () => {
    expect(contactLabel({ name: null, externalId: '16505551234' }, 'whatsapp')).toBe('+16505551234');
  });

  it('falls back to the platform id elsewhere', () => {
    expect(contactLabel({ name: null, externalId: '24609870512312345' }, 'messenger')).toBe('24609870512312345');
    expect(contactLabel({ name: null, externalId: 'crm-42' }, 'api')).toBe('crm-42');
    expect(contactLabel({ name: null, externalId: 'v_abc' })).toBe('v_abc');
  });
});
