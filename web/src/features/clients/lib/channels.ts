/** Channel kinds as people read them, and the connect form's fields per kind. */
import type { ChannelKind, CreateChannelInput } from '@common/api/channels';
import { createChannelInput } from '@common/api/channels';

/** What `externalId` is on each kind. */
export const EXTERNAL_ID_LABEL: Record<ChannelKind, string> = {
  whatsapp: 'Phone number ID',
  messenger: 'Page ID',
  instagram: 'Instagram account ID',
  webchat: 'Widget ID',
  api: 'Channel ID',
};

export const META_KINDS: readonly ChannelKind[] = ['whatsapp', 'messenger', 'instagram'];
export const isMetaKind = (kind: ChannelKind) => META_KINDS.includes(kind);

export interface ConnectChannelForm {
  kind: ChannelKind;
  name: string;
  externalId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  callbackUrl: string;
  signingSecret: string;
}

export type ConnectField = Exclude<keyof ConnectChannelForm, 'kind'>;

export const EMPTY_CONNECT_FORM: ConnectChannelForm = {
  kind: 'whatsapp',
  name: '',
  externalId: '',
  accessToken: '',
  appSecret: '',
  verifyToken: '',
  callbackUrl: '',
  signingSecret: '',
};

/** The form fields each kind asks for, in order. */
export function fieldsFor(kind: ChannelKind): ConnectField[] {
  switch (kind) {
    case 'whatsapp':
    case 'messenger':
    case 'instagram':
      return ['name', 'externalId', 'accessToken', 'appSecret', 'verifyToken'];
    case 'webchat':
      return ['name'];
    case 'api':
      return ['name', 'callbackUrl', 'signingSecret'];
  }
}

const EXTERNAL_ID_KEY = { whatsapp: 'phoneNumberId', messenger: 'pageId', instagram: 'accountId' } as const;

const optional = (value: string) => (value.trim() === '' ? undefined : value);

/** The request body for the chosen kind; empty optional fields are left out (the server generates them). */
export function toCreateChannelInput(clientId: string, form: ConnectChannelForm): CreateChannelInput {
  const name = optional(form.name);
  switch (form.kind) {
    case 'whatsapp':
    case 'messenger':
    case 'instagram':
      return {
        kind: form.kind,
        clientId,
        ...(name === undefined ? {} : { name }),
        [EXTERNAL_ID_KEY[form.kind]]: form.externalId,
        accessToken: form.accessToken,
        appSecret: form.appSecret,
        ...(optional(form.verifyToken) === undefined ? {} : { verifyToken: form.verifyToken }),
      } as CreateChannelInput;
    case 'webchat':
      return { kind: 'webchat', clientId, ...(name === undefined ? {} : { name }) };
    case 'api':
      return {
        kind: 'api',
        clientId,
        ...(name === undefined ? {} : { name }),
        callbackUrl: form.callbackUrl.trim(),
        ...(optional(form.signingSecret) === undefined ? {} : { signingSecret: form.signingSecret }),
      };
  }
}

/** Checks the form with the contract's schema; answers the body or the first message per field. */
export function validateConnectForm(
  clientId: string,
  form: ConnectChannelForm,
): { ok: true; input: CreateChannelInput } | { ok: false; errors: Partial<Record<ConnectField, string>> } {
  const input = toCreateChannelInput(clientId, form);
  const parsed = createChannelInput.safeParse(input);
  if (parsed.success) return { ok: true, input };
  const errors: Partial<Record<ConnectField, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    const field: ConnectField | undefined =
      key === 'phoneNumberId' || key === 'pageId' || key === 'accountId' ? 'externalId' : (fieldsFor(form.kind) as string[]).includes(key) ? (key as ConnectField) : undefined;
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
