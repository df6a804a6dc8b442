/**
 * A workflow on loopback, as n8n would be: it receives Parley's signed trigger (checking
 * X-Parley-Signature when it knows the secret), answers with its own execution id, and reports back
 * through the run's callback URLs with the run's Bearer token when the test tells it to.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedTrigger {
  execution_id: string;
  client_id: string | null;
  callback: { messages_url: string; status_url: string; token: string };
  /** Whether X-Parley-Signature matched the secret (null: no secret given). */
  signatureValid: boolean | null;
}

export interface WorkflowReceiver {
  url: string;
  /** Set the signing secret to check the next triggers with. */
  secret: string | null;
  nextTrigger(timeoutMs?: number): Promise<ReceivedTrigger>;
  postMessage(trigger: ReceivedTrigger, message: { step_name?: string; message_type?: string; content: string; metadata?: Record<string, unknown> }): Promise<number>;
  reportStatus(trigger: ReceivedTrigger, update: { status?: string; error_message?: string }): Promise<number>;
  close(): Promise<void>;
}

function verify(secret: string, timestamp: string | undefined, signature: string | undefined, raw: string): boolean {
  if (!timestamp || !signature) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}

export async function startWorkflowReceiver(externalIdPrefix = 'loop'): Promise<WorkflowReceiver> {
  const received: ReceivedTrigger[] = [];
  const waiters: ((trigger: ReceivedTrigger) => void)[] = [];
  let count = 0;
  const receiver: Partial<WorkflowReceiver> & { secret: string | null } = { secret: null };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Omit<ReceivedTrigger, 'signatureValid'>;
      try {
        body = JSON.parse(raw) as Omit<ReceivedTrigger, 'signatureValid'>;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const trigger: ReceivedTrigger = {
        execution_id: body.execution_id,
        client_id: body.client_id,
        callback: body.callback,
        signatureValid: receiver.secret === null ? null : verify(receiver.secret, header('x-parley-timestamp'), header('x-parley-signature'), raw),
      };
      count += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ execution_id: `${externalIdPrefix}-${count}` }));
      const waiter = waiters.shift();
      if (waiter) waiter(trigger);
      else received.push(trigger);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const call = async (url: string, method: 'POST' | 'PATCH', token: string, body: unknown) => {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await response.text();
    return response.status;
  };

  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/webhook/parley-run`,
    nextTrigger(timeoutMs = 15_000) {
      const ready = received.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise<ReceivedTrigger>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('The workflow received no trigger')), timeoutMs);
        waiters.push((trigger) => {
          clearTimeout(timer);
          resolve(trigger);
        });
      });
    },
    postMessage: (trigger: ReceivedTrigger, message: Record<string, unknown>) => call(trigger.callback.messages_url, 'POST', trigger.callback.token, message),
    reportStatus: (trigger: ReceivedTrigger, update: Record<string, unknown>) => call(trigger.callback.status_url, 'PATCH', trigger.callback.token, update),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
