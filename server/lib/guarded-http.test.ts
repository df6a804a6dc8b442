import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createGuardedHttp, GuardedHttpError, type ResolvedAddress, TrustedOrigins } from './guarded-http';
import { checkOutboundUrl, parseOutboundAllowlist, refusedRange, refusedRangeForConfiguredHost } from './outbound-address';

/** A loopback server standing in for an internal service: records each request it gets. */
async function internalService(handler?: http.RequestListener) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (handler) return handler(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const fixedResolver =
  (answers: Record<string, string[]>) =>
  async (hostname: string): Promise<ResolvedAddress[]> => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(promise: Promise<unknown>): Promise<GuardedHttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardedHttpError);
  return error as GuardedHttpError;
}

// Every notation the audit used to reach this machine; the WHATWG URL parser folds the IPv4 ones to 127.0.0.1.
const LOOPBACK_NOTATIONS = ['127.0.0.1', '[::1]', '0x7f000001', '2130706433', '127.1', '0177.0.0.1', '0.0.0.0', '[::]', 'localhost', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'];

describe('outbound address policy', () => {
  it.each([
    ['127.0.0.1', 'the loopback network'],
    ['::1', 'the loopback network'],
    ['0.0.0.0', 'the unspecified address'],
    ['::', 'the unspecified address'],
    ['10.1.2.3', 'a private network'],
    ['172.16.0.1', 'a private network'],
    ['192.168.1.10', 'a private network'],
    ['fd12:3456::1', 'a private network'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) network'],
    ['169.254.1.1', 'a link-local network'],
    ['fe80::1', 'a link-local network'],
    ['169.254.169.254', 'the cloud metadata service'],
    ['fd00:ec2::254', 'the cloud metadata service'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['192.0.2.1', 'a reserved range'],
    ['240.0.0.1', 'a reserved range'],
    ['2001:db8::1', 'a reserved range'],
    ['::ffff:127.0.0.1', 'the loopback network'],
    ['::ffff:a9fe:a9fe', 'the cloud metadata service'],
    ['::ffff:0:7f00:1', 'the loopback network'],
    ['::7f00:1', 'a reserved range'],
    ['64:ff9b::7f00:1', 'the loopback network'],
    ['64:ff9b::a00:1', 'a private network'],
    ['2002:7f00:1::1', 'the loopback network'],
    ['2002:c0a8:101::1', 'a private network'],
    ['2001::1', 'a reserved range'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(refusedRange(ip)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('admits the public address %s', (ip) => {
    expect(refusedRange(ip)).toBeNull();
  });

  it('refuses every loopback notation in a URL at input time, and names that are this machine', () => {
    for (const host of LOOPBACK_NOTATIONS) {
      expect(checkOutboundUrl(`http://${host}:3000/hook`), host).toMatch(/^Refused: the address resolves to the (loopback network|unspecified address) \(/u);
    }
    expect(checkOutboundUrl('http://LOCALHOST./x')).toMatch(/^Refused/u);
    expect(checkOutboundUrl('http://api.localhost/x')).toMatch(/^Refused/u);
    expect(checkOutboundUrl('http://169.254.169.254/latest/meta-data/')).toBe('Refused: the address resolves to the cloud metadata service (169.254.169.254)');
    expect(checkOutboundUrl('ftp://example.com/')).toBe('Only http and https URLs are allowed');
    expect(checkOutboundUrl('https://hooks.example.com/parley')).toBeNull();
    // A name is judged where it resolves, when the request connects.
    expect(checkOutboundUrl('http://intranet.example/')).toBeNull();
  });

  it('admits what the allowlist names: host names, addresses and ranges, embedded IPv4 included', () => {
    const allowlist = parseOutboundAllowlist(' llm.lan , 10.0.0.0/8,192.168.1.20, [fd00::1], LOCALHOST. ');
    expect([...allowlist.hosts].sort()).toEqual(['llm.lan', 'localhost']);
    expect(refusedRange('10.9.8.7', allowlist)).toBeNull();
    expect(refusedRange('::ffff:10.9.8.7', allowlist)).toBeNull();
    expect(refusedRange('192.168.1.20', allowlist)).toBeNull();
    expect(refusedRange('192.168.1.21', allowlist)).toBe('a private network');
    expect(refusedRange('fd00::1', allowlist)).toBeNull();
    expect(checkOutboundUrl('http://llm.lan:11434/v1', allowlist)).toBeNull();
    expect(checkOutboundUrl('http://localhost:11434/v1', allowlist)).toBeNull();
    expect(checkOutboundUrl('http://10.0.0.5/v1', allowlist)).toBeNull();
    expect(() => parseOutboundAllowlist('10.0.0.0/40')).toThrow(/CIDR/u);
    expect(() => parseOutboundAllowlist('llm.lan:8080')).toThrow(/not a host name/u);
    expect(parseOutboundAllowlist('').hosts.size).toBe(0);
  });

  it('reads OUTBOUND_ALLOWED_HOSTS at start (empty by default) and refuses to start on an entry it cannot read', () => {
    expect(loadConfig({}).outboundAllowlist).toMatchObject({ cidrs: [] });
    expect([...loadConfig({}).outboundAllowlist.hosts]).toEqual([]);
    const config = loadConfig({ OUTBOUND_ALLOWED_HOSTS: 'ollama.lan,10.0.0.0/24' });
    expect(checkOutboundUrl('http://ollama.lan:11434/v1', config.outboundAllowlist)).toBeNull();
    expect(checkOutboundUrl('http://10.0.0.9/v1', config.outboundAllowlist)).toBeNull();
    expect(checkOutboundUrl('http://10.0.1.9/v1', config.outboundAllowlist)).toMatch(/^Refused/u);
    expect(() => loadConfig({ OUTBOUND_ALLOWED_HOSTS: 'ollama.lan, http://n8n.lan' })).toThrow(ConfigError);
    expect(() => loadConfig({ OUTBOUND_ALLOWED_HOSTS: 'ollama.lan, http://n8n.lan' })).toThrow(/OUTBOUND_ALLOWED_HOSTS: "http:\/\/n8n\.lan" is a URL: give only its host name or address/u);
  });
});

describe('guarded HTTP client', () => {
  let service: Awaited<ReturnType<typeof internalService>>;
  beforeAll(async () => {
    service = await internalService();
  });
  afterAll(() => service.close());

  it('refuses every loopback notation when connecting, without reaching the service', async () => {
    const client = createGuardedHttp();
    for (const host of LOOPBACK_NOTATIONS) {
      const error = await refusal(client.request(`http://${host}:${service.port}/admin`));
      expect(error.kind, host).toBe('refused');
      expect(error.message).toMatch(/^Refused: the address resolves to the (loopback network|unspecified address) \((127\.0\.0\.1|::1|0\.0\.0\.0|::|::ffff:7f00:1)\)$/u);
    }
    expect(service.hits).toEqual([]);
    await client.close();
  });

  it('refuses the metadata address and a name that resolves privately, through fetch too', async () => {
    const client = createGuardedHttp({ resolve: fixedResolver({ 'metadata.example': ['169.254.169.254'], 'intranet.example': ['10.0.0.7'] }) });
    expect((await refusal(client.request('http://169.254.169.254/latest/meta-data/'))).message).toBe('Refused: the address resolves to the cloud metadata service (169.254.169.254)');
    expect((await refusal(client.fetch('http://metadata.example/latest/meta-data/'))).message).toBe('Refused: the address resolves to the cloud metadata service (169.254.169.254)');
    expect((await refusal(client.fetch('https://intranet.example/'))).message).toBe('Refused: the address resolves to a private network (10.0.0.7)');
    expect((await refusal(client.request('file:///etc/passwd'))).kind).toBe('refused');
    await client.close();
  });

  it('refuses a name when any one of its addresses is private, and resolves it once, where it connects', async () => {
    const asked: string[] = [];
    const resolver = fixedResolver({ 'mixed.example': ['93.184.215.14', '127.0.0.1'], 'loop.example': ['127.0.0.1'] });
    const client = createGuardedHttp({
      resolve: (host) => {
        asked.push(host);
        return resolver(host);
      },
    });
    expect((await refusal(client.request(`http://mixed.example:${service.port}/`))).message).toBe('Refused: the address resolves to the loopback network (127.0.0.1)');
    expect((await refusal(client.request(`http://loop.example:${service.port}/`))).kind).toBe('refused');
    expect(asked).toEqual(['mixed.example', 'loop.example']);
    expect(service.hits).toEqual([]);
    await client.close();
  });

  it('admits allowlisted hosts: by name whatever they resolve to, by address or range', async () => {
    const resolve = fixedResolver({ 'llm.lan': ['127.0.0.1'], 'other.lan': ['127.0.0.1'] });
    const byName = createGuardedHttp({ resolve, allowlist: parseOutboundAllowlist('llm.lan') });
    const answer = await byName.request(`http://llm.lan:${service.port}/v1/models`);
    expect(answer).toMatchObject({ status: 200, truncated: false });
    expect(answer.body.toString()).toBe('internal secret');
    expect((await refusal(byName.request(`http://other.lan:${service.port}/`))).kind).toBe('refused');
    const byRange = createGuardedHttp({ resolve, allowlist: parseOutboundAllowlist('127.0.0.0/8') });
    expect((await byRange.request(`http://other.lan:${service.port}/a`)).status).toBe(200);
    expect((await byRange.fetch(`http://127.0.0.1:${service.port}/b`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(service.hits.splice(0)).toEqual(['GET /v1/models', 'GET /a', 'POST /b']);
    await Promise.all([byName.close(), byRange.close()]);
  });

  it('admits exactly a trusted origin (the configured n8n) on a private address: not its other ports, names or schemes', async () => {
    const other = await internalService();
    const trusted = new TrustedOrigins();
    const client = createGuardedHttp({ trustedOrigins: trusted, resolve: fixedResolver({ 'n8n.lan': ['127.0.0.1'], 'metadata.lan': ['169.254.169.254'] }) });
    expect((await refusal(client.request(`http://127.0.0.1:${service.port}/`))).kind).toBe('refused');
    trusted.set('n8n', `http://127.0.0.1:${service.port}/some/prefix`);
    expect(client.checkUrl(`http://127.0.0.1:${service.port}/webhook/x`)).toBeNull();
    expect((await client.request(`http://127.0.0.1:${service.port}/webhook/x`)).status).toBe(200);
    expect((await client.fetch(`http://127.0.0.1:${service.port}/api/v1/workflows`)).status).toBe(200);
    // Another port of the same host, the same port under another name or scheme: refused.
    expect(client.checkUrl(`http://127.0.0.1:${other.port}/`)).toBe('Refused: the address resolves to the loopback network (127.0.0.1)');
    for (const url of [`http://127.0.0.1:${other.port}/`, `http://n8n.lan:${service.port}/`, `https://127.0.0.1:${service.port}/`, 'http://10.0.0.1/']) {
      expect((await refusal(client.request(url))).kind, url).toBe('refused');
    }
    // A name is admitted by its origin, and still checked where it connects: never the metadata service.
    trusted.set('n8n', `http://n8n.lan:${service.port}`);
    expect((await client.request(`http://n8n.lan:${service.port}/healthz`)).status).toBe(200);
    expect((await refusal(client.request(`http://127.0.0.1:${service.port}/`))).kind).toBe('refused');
    trusted.set('n8n', 'http://metadata.lan');
    expect((await refusal(client.request('http://metadata.lan/latest/meta-data/'))).message).toBe('Refused: the address resolves to the cloud metadata service (169.254.169.254)');
    trusted.set('n8n', 'http://169.254.169.254');
    expect(client.checkUrl('http://169.254.169.254/')).toBe('Refused: the address resolves to the cloud metadata service (169.254.169.254)');
    // Removed: refused again, even over a connection pooled while it was admitted.
    trusted.set('n8n', `http://127.0.0.1:${service.port}`);
    expect((await client.request(`http://127.0.0.1:${service.port}/a`)).status).toBe(200);
    trusted.set('n8n', null);
    expect((await refusal(client.request(`http://127.0.0.1:${service.port}/b`))).kind).toBe('refused');
    expect(service.hits.splice(0)).toEqual(['GET /webhook/x', 'GET /api/v1/workflows', 'GET /healthz', 'GET /a']);
    expect(other.hits).toEqual([]);
    await client.close();
    await other.close();
  });

  it('a configured host may live on loopback or a private network, never on metadata, link-local or reserved ranges', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.5', '192.168.1.20', '172.16.3.4', 'fd00::5', '100.64.1.1', '::ffff:10.0.0.5', '93.184.215.14']) {
      expect(refusedRangeForConfiguredHost(ip), ip).toBeNull();
    }
    expect(refusedRangeForConfiguredHost('169.254.169.254')).toBe('the cloud metadata service');
    expect(refusedRangeForConfiguredHost('::ffff:169.254.169.254')).toBe('the cloud metadata service');
    expect(refusedRangeForConfiguredHost('169.254.1.1')).toBe('a link-local network');
    expect(refusedRangeForConfiguredHost('fe80::1')).toBe('a link-local network');
    expect(refusedRangeForConfiguredHost('0.0.0.0')).toBe('the unspecified address');
    expect(refusedRangeForConfiguredHost('224.0.0.1')).toBe('a multicast address');
  });

  it('does not follow a redirect to a private address (request and fetch)', async () => {
    const redirecting = await internalService((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${service.port}/admin` });
      res.end();
    });
    // Only the redirecting host is allowed; 127.0.0.2 (where the redirect points) is not.
    const client = createGuardedHttp({ allowlist: parseOutboundAllowlist('127.0.0.1') });
    const answer = await client.request(`http://127.0.0.1:${redirecting.port}/start`);
    expect(answer.status).toBe(302);
    const fetched = await client.fetch(`http://127.0.0.1:${redirecting.port}/start`, { redirect: 'follow' });
    expect(fetched.status).toBe(302);
    expect(fetched.headers.get('location')).toBe(`http://127.0.0.2:${service.port}/admin`);
    expect(redirecting.hits).toHaveLength(2);
    expect(service.hits).toEqual([]);
    await client.close();
    await redirecting.close();
  });

  it('caps the size of an answer: fails, or keeps the first bytes when asked', async () => {
    const huge = await internalService((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const write = () => {
        // 64 MiB unless the client stops reading.
        while (sent < 1024 && res.write(chunk)) sent += 1;
        if (sent < 1024) res.once('drain', write);
        else res.end();
      };
      write();
    });
    const client = createGuardedHttp({ allowlist: parseOutboundAllowlist('127.0.0.1'), maxBodyBytes: 100_000 });
    const error = await refusal(client.request(`http://127.0.0.1:${huge.port}/`));
    expect(error).toMatchObject({ kind: 'too_large', message: 'The answer is larger than 100000 bytes' });
    const cut = await client.request(`http://127.0.0.1:${huge.port}/`, { maxBodyBytes: 1000, oversize: 'truncate' });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body.length).toBe(1000);
    await refusal(client.fetch(`http://127.0.0.1:${huge.port}/`));
    await client.close();
    await huge.close();
  });

  it('caps the total time of a request, the answer included', async () => {
    const slow = await internalService((_req, res) => {
      // Headers at once, then a body that never ends.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const client = createGuardedHttp({ allowlist: parseOutboundAllowlist('127.0.0.1') });
    const error = await refusal(client.request(`http://127.0.0.1:${slow.port}/`, { timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: 'timeout', message: 'No answer within 200 ms' });
    const controller = new AbortController();
    const abandoned = client.request(`http://127.0.0.1:${slow.port}/`, { signal: controller.signal });
    controller.abort();
    expect((await refusal(abandoned)).kind).toBe('aborted');
    await client.close();
    await slow.close();
  });
});
