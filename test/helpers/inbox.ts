/** Test setup for the inbox screens: client users, customer messages, JSON answers. */
import type { LightMyRequestResponse } from 'fastify';
import type { InboundMessageInput } from '../../server/modules/messaging/messaging.service';
import type { TestApp, TestClient } from './app';

let sequence = 0;

/** A customer's text message from `contact` (a new external message id each time). */
export function customerText(contact: string, text: string, name: string | null = contact): InboundMessageInput {
  sequence += 1;
  return { contact: { externalId: contact, name }, message: { externalId: `in-${Date.now()}-${sequence}`, type: 'text', text } };
}

/** A signed-in client user belonging to `clientId`. */
export async function signedInClientUser(app: TestApp, clientId: string, name = 'Client User'): Promise<{ client: TestClient; userId: string; email: string }> {
  const email = `client-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = 'Corr3ct!Horse#Battery';
  const user = await app.services.users.createUser({ email, password, role: 'client', name, clientId });
  const client = app.client();
  await client.signIn(email, password);
  return { client, userId: user.id, email };
}

/** The JSON body of an answer, after checking its status (the body in the failure message). */
export function expectJson<T = unknown>(response: LightMyRequestResponse, status: number): T {
  if (response.statusCode !== status) throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  return response.json<T>();
}
