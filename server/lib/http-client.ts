/**
 * Outgoing HTTP for the reply path (the Graph API): Node's own http/https client over keep-alive
 * agents. `fetch` (undici) costs several times more CPU per request here (Web streams, its WASM
 * parser, the Fetch spec's bookkeeping), and every reply makes one such request.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpRequestOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** The caller gives up (the job's own deadline). */
  signal: AbortSignal;
  /** This request's budget, from sending to the end of the answer. */
  timeoutMs: number;
  /** Longest answer read; the rest is cut off. */
  maxBodyBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Why no answer came: the budget ran out, the caller gave up, or the network failed (`cause` tells how). */
export class HttpRequestError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'aborted' | 'network',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpRequestError';
  }

  /** ECONNREFUSED, ECONNRESET…, or the message. */
  get reason(): string {
    const cause = this.cause as NodeJS.ErrnoException | undefined;
    return cause?.code ?? cause?.message ?? this.message;
  }
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

export function httpRequest(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  const protocol = url.protocol as keyof typeof agents;
  const agent = agents[protocol];
  if (!agent) return Promise.reject(new HttpRequestError(`Unsupported protocol ${url.protocol}`, 'network'));
  const client = protocol === 'https:' ? https : http;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;

  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: HttpRequestError | null, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else if (response) resolve(response);
    };
    const request = client.request(
      url,
      {
        method: options.method,
        agent,
        headers: {
          ...options.headers,
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= maxBody) return;
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          finish(null, { status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).subarray(0, maxBody).toString('utf8') }),
        );
        response.on('error', (error) => finish(new HttpRequestError('The answer was cut off', 'network', { cause: error })));
        response.on('aborted', () => finish(new HttpRequestError('The answer was cut off', 'network')));
      },
    );
    const fail = (error: HttpRequestError) => {
      finish(error);
      request.destroy();
    };
    const timer = setTimeout(() => fail(new HttpRequestError(`No answer within ${options.timeoutMs} ms`, 'timeout')), options.timeoutMs);
    const onAbort = () => fail(new HttpRequestError('The request was abandoned', 'aborted', { cause: options.signal.reason }));
    if (options.signal.aborted) {
      onAbort();
      return;
    }
    options.signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(new HttpRequestError(`The request failed: ${error.message}`, 'network', { cause: error })));
    request.end(options.body);
  });
}
