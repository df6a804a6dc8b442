import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { WIDGET_LIMITS } from './widget.routes';

const SHOP = 'https://shop.example';
let nextIp = 1;

describe.each(ENGINES)('website chat widget API (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  /** Each test its own IP, so the per-IP limit of one does not spill into another. */
  function visitorClient(ip = `10.0.${Math.floor(nextIp / 250)}.${nextIp++ % 250}`) {
    return (method: InjectOptions['method'], url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      app.inject({
        method,
        url,
        remoteAddress: ip,
        headers: { origin: SHOP, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
        ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
      });
  }

  async function widget(companyName = `Shop ${Math.random().toString(36).slice(2, 7)}`) {
    const client = await createTestClient(app, companyName);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat', externalId: `w_${Math.random().toString(36).slice(2, 12)}` });
    return { client, channel, widgetId: channel.externalId! };
  }

  it("answers a widget's name and greeting, and 404 for an unknown or disabled widget", async () => {
    const call = visitorClient();
    const { widgetId, channel } = await widget('Acme Bikes');
    const response = await call('GET', `/api/v1/widget/${widgetId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ widgetId, name: 'Acme Bikes', greeting: 'Hi! How can we help you today?' });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();

    expect((await call('GET', '/api/v1/widget/w_unknown')).statusCode).toBe(404);
    await app.database.db.updateTable('channels').set({ status: 'disabled' }).where('id', '=', channel.id).execute();
    const disabled = await call('GET', `/api/v1/widget/${widgetId}`);
    expect(disabled.statusCode).toBe(404);
    expect(disabled.headers['access-control-allow-origin']).toBe('*');
  });

  it('starts a new visitor, resumes one with its token, and starts afresh for a forged or foreign token', async () => {
    const call = visitorClient();
    const { widgetId } = await widget();
    const other = await widget();
    const created = await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} });
    expect(created.statusCode).toBe(201);
    const visitor = created.json();
    expect(visitor.visitorToken.startsWith(`${visitor.visitorId}.`)).toBe(true);

    const resumed = await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: { visitorToken: visitor.visitorToken } });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toEqual(visitor);

    const forged = await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: { visitorToken: `${visitor.visitorId}.forgedforgedforged` } });
    expect(forged.statusCode).toBe(201);
    expect(forged.json().visitorId).not.toBe(visitor.visitorId);
    const foreign = await call('POST', `/api/v1/widget/${other.widgetId}/visitors`, { body: { visitorToken: visitor.visitorToken } });
    expect(foreign.statusCode).toBe(201);
    expect(foreign.json().visitorId).not.toBe(visitor.visitorId);
  });

  it("refuses a missing, forged or another widget's token with 401", async () => {
    const call = visitorClient();
    const { widgetId } = await widget();
    const other = await widget();
    const theirs = (await call('POST', `/api/v1/widget/${other.widgetId}/visitors`, { body: {} })).json();
    const mine = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const send = { text: 'hello', clientMessageId: 'client-msg-0001' };
    for (const token of [undefined, `${mine.visitorId}.forged`, theirs.visitorToken, 'garbage']) {
      const read = await call('GET', `/api/v1/widget/${widgetId}/messages`, { token });
      const write = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token, body: send });
      expect([read.statusCode, write.statusCode], String(token)).toEqual([401, 401]);
      expect(write.headers['access-control-allow-origin']).toBe('*');
    }
    expect(await app.database.db.selectFrom('messages').select('id').where('content', '=', 'hello').execute()).toEqual([]);
  });

  it("sends a visitor's message, shows it with the business's replies in the history, and keeps visitors apart", async () => {
    const call = visitorClient();
    const { widgetId, channel } = await widget();
    const visitor = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: { name: 'Léa' } })).json();
    expect((await call('GET', `/api/v1/widget/${widgetId}/messages`, { token: visitor.visitorToken })).json()).toEqual({ messages: [] });

    const sent = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitor.visitorToken, body: { text: '  Do you ship to Porto? 🚲 ', clientMessageId: 'cm-aaaaaaaa' } });
    expect(sent.statusCode).toBe(201);
    const message = sent.json();
    expect(message).toMatchObject({ from: 'visitor', senderType: 'customer', text: 'Do you ship to Porto? 🚲' });

    const stored = await app.database.db.selectFrom('messages').selectAll().where('id', '=', message.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ channelId: channel.id, direction: 'inbound' });
    const contact = await app.database.db.selectFrom('contacts').selectAll().where('channelId', '=', channel.id).executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ externalId: visitor.visitorId, name: 'Léa' });

    const reply = await app.services.messaging.sendMessage(stored.conversationId, { text: 'Yes, in 2 days.', senderType: 'agent', senderId: null }, { kind: 'system' });
    const history = (await call('GET', `/api/v1/widget/${widgetId}/messages`, { token: visitor.visitorToken })).json();
    expect(history.messages.map((m: { id: string; from: string; text: string }) => [m.id, m.from, m.text])).toEqual([
      [message.id, 'visitor', 'Do you ship to Porto? 🚲'],
      [reply.id, 'business', 'Yes, in 2 days.'],
    ]);

    // Another visitor of the same widget sees only their own conversation, even reusing the same client id.
    const stranger = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const theirs = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: stranger.visitorToken, body: { text: 'me too', clientMessageId: 'cm-aaaaaaaa' } });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(message.id);
    const strangerHistory = (await call('GET', `/api/v1/widget/${widgetId}/messages`, { token: stranger.visitorToken })).json();
    expect(strangerHistory.messages.map((m: { text: string }) => m.text)).toEqual(['me too']);
  });

  it('stores a retried send once per clientMessageId', async () => {
    const call = visitorClient();
    const { widgetId, channel } = await widget();
    const { visitorToken } = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const body = { text: 'only once', clientMessageId: 'retry-safe-1' };
    const first = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitorToken, body });
    const [second, third] = await Promise.all([
      call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitorToken, body }),
      call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitorToken, body }),
    ]);
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([201, 200, 200]);
    expect(second.json()).toEqual(first.json());
    const rows = await app.database.db.selectFrom('messages').select('id').where('channelId', '=', channel.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('validates what a visitor sends: 400 with a message', async () => {
    const call = visitorClient();
    const { widgetId } = await widget();
    const { visitorToken } = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const empty = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitorToken, body: { text: '   ', clientMessageId: 'cm-12345678' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Message cannot be empty');
    const long = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: visitorToken, body: { text: 'x'.repeat(2001), clientMessageId: 'cm-12345678' } });
    expect(long.statusCode).toBe(400);
  });

  it('answers CORS preflights on the widget routes only', async () => {
    const call = visitorClient();
    const { widgetId } = await widget();
    const preflight = await call('OPTIONS', `/api/v1/widget/${widgetId}/messages`, {
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type',
    });
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();

    for (const url of ['/api/v1/health', '/api/v1/auth/session', '/api/v1/public/demo-widget']) {
      expect((await call('GET', url)).headers['access-control-allow-origin'], url).toBeUndefined();
    }
    const elsewhere = await call('OPTIONS', '/api/v1/auth/sign-in', { headers: { 'access-control-request-method': 'POST' } });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('limits each visitor, and each IP, with a 429 that says what to do', async () => {
    const ip = '10.99.0.1';
    const call = visitorClient(ip);
    const { widgetId } = await widget();
    const chatty = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const calm = (await call('POST', `/api/v1/widget/${widgetId}/visitors`, { body: {} })).json();
    const statuses: number[] = [];
    for (let i = 0; i < WIDGET_LIMITS.perVisitorPerMinute + 1; i++) {
      statuses.push((await call('GET', `/api/v1/widget/${widgetId}/messages`, { token: chatty.visitorToken })).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    const limited = await call('POST', `/api/v1/widget/${widgetId}/messages`, { token: chatty.visitorToken, body: { text: 'hi', clientMessageId: 'cm-87654321' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED', message: "You're sending messages too quickly. Please wait a moment and try again." });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    // Someone else behind the same address is not held back by that visitor.
    expect((await call('GET', `/api/v1/widget/${widgetId}/messages`, { token: calm.visitorToken })).statusCode).toBe(200);

    const used = 3 + WIDGET_LIMITS.perVisitorPerMinute + 2;
    const remaining: number[] = [];
    for (let i = used + 1; i <= WIDGET_LIMITS.perIpPerMinute; i++) remaining.push((await call('GET', `/api/v1/widget/${widgetId}`)).statusCode);
    expect(remaining.every((s) => s === 200)).toBe(true);
    const blocked = await call('GET', `/api/v1/widget/${widgetId}`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe('Too many chat requests from your network. Please wait a minute and try again.');
    expect((await visitorClient()('GET', `/api/v1/widget/${widgetId}`)).statusCode).toBe(200);
  });

  it("ensures Parley's demo client and widget once, and serves its id to the marketing pages", async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/public/demo-widget' })).statusCode).toBe(404);
    const ids = await Promise.all([app.services.widget.ensureDemoWidget('Parley'), app.services.widget.ensureDemoWidget('Parley')]);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    expect(await app.services.widget.ensureDemoWidget('Parley')).toBe(ids[0]);
    const clients = await app.database.db.selectFrom('clients').select('id').where('companyName', '=', 'Parley').execute();
    expect(clients).toHaveLength(1);

    const demo = await app.inject({ method: 'GET', url: '/api/v1/public/demo-widget' });
    expect(demo.json()).toEqual({ widgetId: ids[0] });
    expect((await visitorClient()('GET', `/api/v1/widget/${ids[0]}`)).json()).toMatchObject({ name: 'Parley' });

    // An administrator who disables it is not overruled at the next start.
    await app.database.db.updateTable('channels').set({ status: 'disabled' }).where('externalId', '=', ids[0]!).execute();
    expect(await app.services.widget.ensureDemoWidget('Parley')).toBeNull();
    expect((await app.inject({ method: 'GET', url: '/api/v1/public/demo-widget' })).statusCode).toBe(404);
  });

  it('serves widget.js so that other sites may load it, and revalidated within minutes', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-widget-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Parley</title>');
    fs.writeFileSync(path.join(dist, 'widget.js'), '(function(){})();');
    const served = await createTestApp(engine, { env: { WEB_DIST_DIR: dist } });
    try {
      const script = await served.server.inject({ method: 'GET', url: '/widget.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/u);
      expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(script.headers['cache-control']).toBe('public, max-age=300');
      const page = await served.server.inject({ method: 'GET', url: '/' });
      expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    } finally {
      await served.destroy();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
