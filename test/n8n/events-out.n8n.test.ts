/**
 * Events out against a real n8n (`npm run test:n8n`, issue 14 §7). Parley listens on a loopback
 * port (its PUBLIC_URL); n8n's loopback host is allowlisted as an operator would allow a LAN host
 * (OUTBOUND_ALLOWED_HOSTS, docs/webhooks.md "n8n").
 *
 * a. A subscription targets an n8n Webhook workflow (made through n8n's public API, activated); a
 *    visitor writes through the website widget's public HTTP API; n8n's execution of that workflow
 *    holds the signed `message.received` envelope — read back through n8n's executions API.
 * b. A person taking that conversation over (`conversation.escalated`) starts the automation whose
 *    config.triggers lists it and whose workflow is the starter workflow: its step message comes
 *    back live over the WebSocket, and the execution ends 'success', started by the event.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationMessageView, CreatedAutomation, ExecutionView } from '../../common/api/automations';
import type { CreatedSubscription, SubscriptionView } from '../../common/api/hooks';
import type { RealtimeServerMessage } from '../../common/api/realtime';
import { checkApiSignature } from '../../server/modules/channels';
import { starterWorkflow } from '../../server/modules/n8n';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../helpers/app';
import { expectJson } from '../helpers/inbox';
import { createTestChannel, createTestClient } from '../helpers/messaging';
import { type RealN8n, startN8n } from '../helpers/n8n';
import { ALLOW_LOOPBACK_FAKES } from '../helpers/outbound';
import { connectRealtime, cookieHeader, type TestSocket } from '../helpers/realtime';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An n8n workflow: a Webhook node (POST `path`, answering at once) and nothing else. */
function eventsWorkflow(path: string) {
  return {
    name: 'Parley events',
    nodes: [
      {
        id: randomUUID(),
        name: 'Parley event',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: `${path}-webhook`,
        parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
      },
    ],
    connections: {},
    settings: { executionOrder: 'v1' },
  };
}

interface N8nExecution {
  id: string;
  status: string;
  workflowId: string;
  data?: { resultData: { runData: Record<string, { data: { main: { json: { headers: Record<string, string>; body: unknown } }[][] } }[]> } };
}

describe('events out to a real n8n', () => {
  let n8n: RealN8n;
  let app: TestApp;
  let admin: TestClient;
  let parleyUrl: string;
  let business: { id: string };
  let widgetId: string;
  let eventsWorkflowId: string;
  let starterId: string;
  let socket: TestSocket | undefined;
  let conversationId: string;
  const started = performance.now();

  beforeAll(async () => {
    const port = await freePort();
    parleyUrl = `http://127.0.0.1:${port}`;
    n8n = await startN8n();
    console.log(`n8n ${n8n.version} ready in ${n8n.timings.readySeconds.toFixed(1)} s, owner and API key in ${n8n.timings.setupSeconds.toFixed(1)} s`);
    app = await createTestApp('pglite', { env: { PUBLIC_URL: parleyUrl, ...ALLOW_LOOPBACK_FAKES } });
    await app.server.listen({ port, host: '127.0.0.1' });
    ({ client: admin } = await signedInClient(app, 'admin'));
    business = await createTestClient(app, 'Harbour Bikes');
    const channel = await createTestChannel(app, { clientId: business.id, kind: 'webchat', externalId: `w_n8n${Math.random().toString(36).slice(2, 10)}` });
    widgetId = channel.externalId!;
    // What a user does in n8n: a workflow with a Webhook node, and the starter workflow; both active.
    eventsWorkflowId = (await n8n.api<{ id: string }>('POST', '/workflows', eventsWorkflow('parley-events'))).id;
    starterId = (await n8n.api<{ id: string }>('POST', '/workflows', starterWorkflow())).id;
    await n8n.api('POST', `/workflows/${eventsWorkflowId}/activate`);
    await n8n.api('POST', `/workflows/${starterId}/activate`);
  });
  afterAll(async () => {
    socket?.close();
    await app?.destroy();
    await n8n?.stop();
    console.log(`real-n8n events out: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${n8n.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The website widget's public API, over HTTP, as the embedded widget calls it. */
  async function widget<T>(path: string, body: unknown, token?: string): Promise<{ status: number; json: T }> {
    const response = await fetch(`${parleyUrl}/api/v1/widget/${widgetId}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://harbour-bikes.example', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as T };
  }

  it("a visitor's message through the website widget runs the subscribed n8n workflow with the signed message.received envelope", async () => {
    const created = expectJson<CreatedSubscription>(
      await admin.post('/api/v1/webhook-subscriptions', { name: 'n8n', url: `${n8n.url}/webhook/parley-events`, client_id: business.id, events: ['message.received'] }),
      201,
    );

    const visitor = await widget<{ visitorToken: string }>('/visitors', { name: 'Ana' });
    expect(visitor.status).toBe(201);
    const t0 = performance.now();
    const sent = await widget<{ id: string }>('/messages', { text: 'Is my bike ready?', clientMessageId: 'n8n-message-0001' }, visitor.json.visitorToken);
    expect(sent.status).toBe(201);

    // n8n ran the workflow: its Webhook node's output is the request Parley sent.
    const listed = await until('an execution of the events workflow', async () => {
      const { data } = await n8n.api<{ data: N8nExecution[] }>('GET', `/executions?workflowId=${eventsWorkflowId}`);
      return data.find((e) => e.status === 'success');
    });
    console.log(`widget message → n8n execution finished within ${Math.round(performance.now() - t0)} ms`);
    expect(listed.workflowId).toBe(eventsWorkflowId);
    const execution = await n8n.api<N8nExecution>('GET', `/executions/${listed.id}?includeData=true`);
    const output = execution.data!.resultData.runData['Parley event']![0]!.data.main[0]![0]!.json;
    const envelope = output.body as { id: string; type: string; client_id: string; data: { message: { id: string; content: string; direction: string }; conversation: { id: string; platform: string } } };
    expect(envelope).toMatchObject({
      type: 'message.received',
      client_id: business.id,
      data: { message: { id: sent.json.id, content: 'Is my bike ready?', direction: 'inbound' }, conversation: { platform: 'webchat' } },
    });
    conversationId = envelope.data.conversation.id;
    expect(output.headers['x-parley-event-type']).toBe('message.received');
    expect(output.headers['x-parley-event-id']).toBe(envelope.id);
    expect(output.headers['x-parley-signature']).toMatch(/^sha256=[0-9a-f]{64}$/u);
    // The signature n8n received is over the body Parley sent (re-serialised by n8n: same JSON, so
    // the subscriber's own check passes on the compact form Parley signs).
    const raw = Buffer.from(JSON.stringify(envelope));
    expect(checkApiSignature(created.signing_secret, { timestamp: output.headers['x-parley-timestamp'], signature: output.headers['x-parley-signature'] }, raw, new Date())).toBe(
      'valid',
    );

    // Parley's side: one successful call.
    const view = expectJson<SubscriptionView>(await admin.get(`/api/v1/webhook-subscriptions/${created.subscription.id}`), 200);
    expect(view).toMatchObject({ total_calls: 1, success_count: 1, failure_count: 0 });
  });

  it('an escalation starts the automation listening for it: the starter workflow answers live and the run ends success, started by the event', async () => {
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: n8n.apiKey }), 200);
    const automation = expectJson<CreatedAutomation>(
      await admin.post('/api/v1/automations', {
        name: 'Escalation follow-up',
        workflow_id: starterId,
        workflow_url: `${n8n.url}/webhook/parley-starter`,
        client_id: business.id,
        status: 'active',
        config: { triggers: [{ event: 'conversation.escalated', filters: { channel: ['webchat'] } }] },
      }),
      201,
    );
    const automationId = automation.automation.id;
    socket = await connectRealtime(parleyUrl, { cookie: cookieHeader(admin.cookies) });
    expect(await socket.subscribe(`automation:${automationId}`)).toMatchObject({ type: 'subscribed' });

    // A person takes the conversation over from the AI: conversation.escalated.
    const t0 = performance.now();
    expect((await admin.patch(`/api/v1/conversations/${conversationId}`, { handledBy: 'human' })).statusCode).toBe(200);

    // Live: n8n's step message, then the final status.
    const dataOf = (m: RealtimeServerMessage) => (m.type === 'event' ? m.data : undefined);
    const step = dataOf(await socket.next((m) => m.type === 'event' && m.event === 'automation.message.created', 45_000)) as AutomationMessageView;
    expect(step).toMatchObject({ step_name: 'Starter workflow', message_type: 'success', content: `n8n received run ${step.execution_id} and answered Parley.` });
    const ended = dataOf(
      await socket.next((m) => m.type === 'event' && m.event === 'automation.execution.updated' && (m.data as ExecutionView).status === 'success', 45_000),
    ) as ExecutionView;
    console.log(`escalation → success reported by n8n in ${Math.round(performance.now() - t0)} ms`);
    expect(ended.id).toBe(step.execution_id);

    const execution = expectJson<ExecutionView>(await admin.get(`/api/v1/automation-executions/${step.execution_id}`), 200);
    expect(execution).toMatchObject({ automation_id: automationId, status: 'success', started_how: 'event', trigger_event_type: 'conversation.escalated', error_message: null });
    expect(execution.execution_id).toMatch(/^\d+$/u);
    // Exactly one run for the one escalation.
    const { executions } = expectJson<{ executions: ExecutionView[] }>(await admin.get(`/api/v1/automations/${automationId}/executions`), 200);
    expect(executions.map((e) => e.id)).toEqual([step.execution_id]);
    // n8n agrees, read through Parley.
    expect(expectJson(await admin.get(`/api/v1/n8n/executions/${execution.execution_id}`), 200)).toMatchObject({ status: 'success', workflowId: starterId });
  });
});
