/**
 * Messaging set-up for the browser journeys, through Parley's own API as an admin would use it:
 * clients, channels, client users, and WhatsApp deliveries signed the way Meta signs them
 * (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`).
 */
import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { ADMIN, signInByApi, STRONG_PASSWORD, uniqueEmail, type TestUser } from './users';

type Playwright = { request: { newContext: (options: { baseURL: string }) => Promise<APIRequestContext> } };

export interface Api {
  request: APIRequestContext;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, data?: unknown, expected?: number): Promise<T>;
  dispose(): Promise<void>;
}

/** A signed-in API session (the admin unless told otherwise). */
export async function apiAs(playwright: Playwright, baseURL: string, email: string = ADMIN.email, password: string = ADMIN.password): Promise<Api> {
  const request = await playwright.request.newContext({ baseURL });
  await signInByApi(request, email, password);
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
  return {
    request,
    async get<T>(path: string) {
      const response = await request.get(path);
      expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
      return (await response.json()) as T;
    },
    async post<T>(path: string, data?: unknown, expected = 201) {
      const response = await request.post(path, { data, headers: { 'x-csrf-token': csrf } });
      expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(expected);
      const text = await response.text();
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
    dispose: () => request.dispose(),
  };
}

/** `text` as a regular expression matching it literally. */
export const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'), 'u');

export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function createClient(api: Api, companyName: string = unique('E2E Client')): Promise<{ id: string; companyName: string }> {
  return api.post('/api/v1/clients', { companyName });
}

export interface WhatsAppChannel {
  id: string;
  phoneNumberId: string;
  appSecret: string;
}

/** A WhatsApp channel with its own phone number id and app secret (accented, as Meta allows). */
export async function createWhatsAppChannel(api: Api, clientId: string): Promise<WhatsAppChannel> {
  const phoneNumberId = `e2e${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const appSecret = `app-secret-é-${Math.random().toString(36).slice(2)}`;
  const channel = await api.post<{ id: string }>('/api/v1/channels', {
    kind: 'whatsapp',
    clientId,
    phoneNumberId,
    accessToken: `access-token-${Math.random().toString(36).slice(2)}`,
    appSecret,
  });
  return { id: channel.id, phoneNumberId, appSecret };
}

/** A client user of `clientId`, active and verified at once. */
export async function createClientUser(api: Api, clientId: string, name = 'Carla Client'): Promise<TestUser> {
  const user: TestUser = { email: uniqueEmail('client'), password: STRONG_PASSWORD, name, role: 'client' };
  await api.post('/api/v1/users', { ...user, clientId });
  return user;
}

/**
 * POSTs a WhatsApp Cloud API delivery of one text message to /webhooks/whatsapp, signed with the
 * channel's app secret over the exact bytes sent.
 */
export async function deliverWhatsAppText(
  request: APIRequestContext,
  channel: WhatsAppChannel,
  message: { from: string; name: string; text: string },
): Promise<void> {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: channel.phoneNumberId },
              contacts: [{ profile: { name: message.name }, wa_id: message.from }],
              messages: [
                {
                  from: message.from,
                  id: `wamid.${Date.now()}${Math.random().toString(36).slice(2)}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: message.text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const raw = Buffer.from(body, 'utf8');
  const signature = `sha256=${createHmac('sha256', channel.appSecret).update(raw).digest('hex')}`;
  const response = await request.post('/webhooks/whatsapp', {
    data: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A random WhatsApp id (digits only, like a phone number). */
export function waId(): string {
  return `1555${Math.floor(Math.random() * 1e7)
    .toString()
    .padStart(7, '0')}`;
}

/**
 * Switches the demo client's AI agent (the marketing site's widget) on or off, for journeys about
 * people talking to visitors: with it on, the agent would answer (or hand off) two seconds in.
 */
export async function setDemoAgent(api: Api, enabled: boolean): Promise<void> {
  const { agents } = await api.get<{ agents: { clientId: string; clientName: string }[] }>('/api/v1/agents');
  const demo = agents.find((a) => a.clientName === 'Parley');
  if (!demo) throw new Error('No demo client (DEMO_CLIENT_NAME "Parley") on this server');
  const csrf = (await api.request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
  const response = await api.request.put(`/api/v1/clients/${demo.clientId}/agent`, { data: { enabled }, headers: { 'x-csrf-token': csrf } });
  expect(response.status(), await response.text()).toBe(200);
}
