import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentView, KnowledgeView } from '../../../common/api/agents';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';

const CSV = [
  'question,answer,link',
  'When are you open?,"We are open 9:00-18:00, Monday to Saturday.",',
  'What are your opening hours?,"We are open 9:00-18:00, Monday to Saturday.",',
  'How much is shipping?,Shipping is free over 50 euros.,https://shop.example/shipping',
  'Is delivery free?,Shipping is free over 50 euros.,https://shop.example/shipping',
  '"Can I pay with ""cash""?",Yes — cash on delivery works everywhere.,',
  '',
].join('\r\n');

describe.each(ENGINES)('agents and knowledge API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;
  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
    manager = (await signedInClient(app, 'manager')).client;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('every client has an agent: off with the spec defaults until configured', async () => {
    const client = await createTestClient(app);
    const agent = expectJson<AgentView>(await manager.get(`/api/v1/clients/${client.id}/agent`), 200);
    expect(agent).toMatchObject({ clientId: client.id, enabled: false, confidenceThreshold: 0.8, escalationEnabled: true, responseDelaySeconds: 2, engine: 'embedded', hasLlmApiKey: false });
    const list = expectJson<{ agents: AgentView[] }>(await manager.get('/api/v1/agents'), 200);
    expect(list.agents.some((a) => a.clientId === client.id)).toBe(true);
  });

  it('validates the configuration with field messages, and stores the API key sealed, never returning it', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const url = `/api/v1/clients/${client.id}/agent`;
    const tooSlow = await admin.put(url, { responseDelaySeconds: 61 });
    expect(tooSlow.statusCode).toBe(400);
    expect(tooSlow.json().error.fields.responseDelaySeconds).toBe('Response delay must be between 0 and 60 seconds');
    expect((await admin.put(url, { responseDelaySeconds: 1.5 })).json().error.fields.responseDelaySeconds).toBe('Response delay must be a whole number of seconds');
    expect((await admin.put(url, { confidenceThreshold: 0.5 })).statusCode).toBe(400);
    expect((await admin.put(url, { businessHours: { timezone: 'Mars/Olympus', days: [] } })).statusCode).toBe(400);
    expect((await admin.put(url, { engine: 'openai-compatible', llmBaseUrl: null })).json().error.fields.llmBaseUrl).toBeDefined();
    expect((await admin.put(url, {})).statusCode).toBe(400);

    const saved = expectJson<AgentView>(
      await admin.put(url, { enabled: true, confidenceThreshold: 0.9, responseDelaySeconds: 0, disabledChannelIds: [channel.id], engine: 'openai', llmApiKey: 'sk-test-never-shown' }),
      200,
    );
    expect(saved).toMatchObject({ enabled: true, confidenceThreshold: 0.9, responseDelaySeconds: 0, engine: 'openai', hasLlmApiKey: true });
    expect(saved.channels).toEqual([{ channelId: channel.id, name: 'webchat', kind: 'webchat', enabled: false }]);
    expect(JSON.stringify(saved)).not.toContain('sk-test-never-shown');
    const row = await app.database.db.selectFrom('agents').select('llmApiKeySealed').where('clientId', '=', client.id).executeTakeFirstOrThrow();
    expect(row.llmApiKeySealed).toMatch(/^v1\./u);
    expect(row.llmApiKeySealed).not.toContain('sk-test');
    // Absent keeps the key; null removes it.
    expect(expectJson<AgentView>(await admin.put(url, { name: 'Shop helper' }), 200).hasLlmApiKey).toBe(true);
    expect(expectJson<AgentView>(await admin.put(url, { llmApiKey: null, engine: 'embedded' }), 200).hasLlmApiKey).toBe(false);
    // Another client's channel cannot be switched off here.
    const other = await createTestChannel(app, { clientId: (await createTestClient(app)).id, kind: 'webchat' });
    expect((await admin.put(url, { disabledChannelIds: [other.id] })).statusCode).toBe(400);
  });

  it('only admins change agents and knowledge; client users read their own client only', async () => {
    const mine = await createTestClient(app);
    const theirs = await createTestClient(app);
    const user = await signedInClientUser(app, mine.id);
    expect((await manager.put(`/api/v1/clients/${mine.id}/agent`, { enabled: true })).statusCode).toBe(403);
    expect((await user.client.put(`/api/v1/clients/${mine.id}/agent`, { enabled: true })).statusCode).toBe(403);
    expect((await user.client.post(`/api/v1/clients/${mine.id}/knowledge/entries`, { questions: ['q'], answer: 'a' })).statusCode).toBe(403);
    expect((await user.client.post(`/api/v1/clients/${mine.id}/agent/try`, { message: 'hi' })).statusCode).toBe(403);
    expectJson(await user.client.get(`/api/v1/clients/${mine.id}/agent`), 200);
    expectJson(await user.client.get(`/api/v1/clients/${mine.id}/knowledge`), 200);
    expect((await user.client.get(`/api/v1/clients/${theirs.id}/agent`)).statusCode).toBe(404);
    expect((await user.client.get(`/api/v1/clients/${theirs.id}/knowledge`)).statusCode).toBe(404);
    expect((await user.client.get(`/api/v1/clients/${theirs.id}/knowledge/export?format=json`)).statusCode).toBe(404);
    const list = expectJson<{ agents: AgentView[] }>(await user.client.get('/api/v1/agents'), 200);
    expect(list.agents.map((a) => a.clientId)).toEqual([mine.id]);
  });

  it('imports CSV (rows with one answer form one entry), exports it back, and retrains', async () => {
    const client = await createTestClient(app);
    const result = expectJson<{ entries: number; questions: number }>(await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'csv', content: CSV }), 200);
    expect(result).toMatchObject({ entries: 3, questions: 5 });
    await app.queue.waitForIdle();
    const kb = expectJson<KnowledgeView>(await admin.get(`/api/v1/clients/${client.id}/knowledge`), 200);
    expect(kb.entries.map((e) => e.questions)).toEqual([['When are you open?', 'What are your opening hours?'], ['How much is shipping?', 'Is delivery free?'], ['Can I pay with "cash"?']]);
    expect(kb.entries[1]?.link).toBe('https://shop.example/shipping');
    expect(kb.training).toMatchObject({ status: 'idle', knowledgeVersion: 1, liveVersion: 1 });
    expect(kb.training.liveAt).not.toBeNull();

    const csv = await admin.get(`/api/v1/clients/${client.id}/knowledge/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/u);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".*-knowledge\.csv"/u);
    const json = await admin.get(`/api/v1/clients/${client.id}/knowledge/export?format=json`);
    expect(JSON.parse(json.body)).toEqual([
      { questions: ['When are you open?', 'What are your opening hours?'], answer: 'We are open 9:00-18:00, Monday to Saturday.' },
      { questions: ['How much is shipping?', 'Is delivery free?'], answer: 'Shipping is free over 50 euros.', link: 'https://shop.example/shipping' },
      { questions: ['Can I pay with "cash"?'], answer: 'Yes — cash on delivery works everywhere.' },
    ]);

    // Round trip: the exported CSV imported into another client gives the same entries.
    const copy = await createTestClient(app);
    expectJson(await admin.post(`/api/v1/clients/${copy.id}/knowledge/import`, { format: 'csv', content: csv.body }), 200);
    const copied = expectJson<KnowledgeView>(await admin.get(`/api/v1/clients/${copy.id}/knowledge`), 200);
    expect(copied.entries.map(({ questions, answer, link }) => ({ questions, answer, link }))).toEqual(kb.entries.map(({ questions, answer, link }) => ({ questions, answer, link })));

    // Search filters entries; totals stay.
    const found = expectJson<KnowledgeView>(await admin.get(`/api/v1/clients/${client.id}/knowledge?search=cash`), 200);
    expect(found.entries).toHaveLength(1);
    expect(found.totals.entries).toBe(3);
  });

  it('refuses a bad file whole, naming the row, and keeps what was there', async () => {
    const client = await createTestClient(app);
    expectJson(await admin.post(`/api/v1/clients/${client.id}/knowledge/entries`, { questions: ['Keep me?'], answer: 'Yes.' }), 201);
    const bad = await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'csv', content: 'question,answer\nFine?,Fine.\nNo answer here,\n' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.content).toBe('Line 3: the answer is empty');
    const header = await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'csv', content: 'q,a\nx,y\n' });
    expect(header.json().error.fields.content).toMatch(/header question,answer/u);
    const json = await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'json', content: '[{"questions": [], "answer": "x"}]' });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.fields.content).toBe('Entry 1: Add at least one example question');
    expect((await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'json', content: '{not json' })).json().error.fields.content).toBe('The file is not valid JSON');
    const kb = expectJson<KnowledgeView>(await admin.get(`/api/v1/clients/${client.id}/knowledge`), 200);
    expect(kb.entries.map((e) => e.answer)).toEqual(['Yes.']);
  });

  it('entry and article CRUD bump the version; edits during training end with the newest version live', async () => {
    const client = await createTestClient(app);
    const base = `/api/v1/clients/${client.id}/knowledge`;
    const entry = expectJson<{ id: string }>(await admin.post(`${base}/entries`, { questions: ['Do you ship abroad?', 'Do you ship abroad?'], answer: 'Yes, across the EU.' }), 201);
    const article = expectJson<{ id: string }>(await admin.post(`${base}/articles`, { title: 'Returns', body: 'Returns are free within 30 days.' }), 201);
    expect((await admin.post(`${base}/entries`, { questions: [], answer: 'x' })).json().error.fields.questions).toBe('Add at least one example question');
    expectJson(await admin.put(`/api/v1/knowledge/entries/${entry.id}`, { questions: ['Do you ship abroad?', 'International shipping?'], answer: 'Yes, across the EU and the UK.' }), 200);
    expectJson(await admin.put(`/api/v1/knowledge/articles/${article.id}`, { title: 'Returns policy', body: 'Returns are free within 30 days.' }), 200);
    await app.queue.waitForIdle();
    let kb = expectJson<KnowledgeView>(await admin.get(base), 200);
    expect(kb.entries[0]?.questions).toEqual(['Do you ship abroad?', 'International shipping?']);
    expect(kb.articles[0]?.title).toBe('Returns policy');
    expect(kb.training).toMatchObject({ status: 'idle', knowledgeVersion: 4, liveVersion: 4 });
    const models = await app.database.db.selectFrom('agentModels').select('version').where('clientId', '=', client.id).execute();
    expect(models.map((m) => m.version)).toContain(4);

    expect((await admin.delete(`/api/v1/knowledge/articles/${article.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/v1/knowledge/entries/${entry.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/v1/knowledge/entries/${entry.id}`)).statusCode).toBe(404);
    await app.queue.waitForIdle();
    kb = expectJson<KnowledgeView>(await admin.get(base), 200);
    expect(kb.entries).toEqual([]);
    expect(kb.training).toMatchObject({ knowledgeVersion: 6, liveVersion: 6 });
  });

  it('tries the agent: the answer, its confidence and what the policy would do', async () => {
    const client = await createTestClient(app);
    await admin.post(`/api/v1/clients/${client.id}/knowledge/import`, { format: 'csv', content: CSV });
    await app.queue.waitForIdle();
    const answer = expectJson<{ reply: string; decision: string; confidence: number; sources: { title: string }[] }>(
      await manager.post(`/api/v1/clients/${client.id}/agent/try`, { message: 'what are the opening hours?' }),
      200,
    );
    expect(answer.reply).toBe('We are open 9:00-18:00, Monday to Saturday.');
    expect(answer.sources[0]?.title).toBe('When are you open?');
    const person = expectJson<{ decision: string }>(await manager.post(`/api/v1/clients/${client.id}/agent/try`, { message: 'I want to talk to a human' }), 200);
    expect(person.decision).toBe('handoff');
  });

  it("the demo client's agent knows the marketing site (once: an admin's changes are kept)", async () => {
    const widgetId = await app.services.widget.ensureDemoWidget('Parley demo');
    expect(widgetId).not.toBeNull();
    await app.services.agents.ensureDemoAgent(widgetId ?? '', TEST_PUBLIC_URL);
    const channel = await app.database.db.selectFrom('channels').select('clientId').where('externalId', '=', widgetId).executeTakeFirstOrThrow();
    const agent = expectJson<AgentView>(await manager.get(`/api/v1/clients/${channel.clientId}/agent`), 200);
    expect(agent).toMatchObject({ enabled: true, name: 'Parley Assistant', training: { status: 'idle', liveVersion: 1 } });
    const answer = expectJson<{ reply: string; decision: string }>(await manager.post(`/api/v1/clients/${channel.clientId}/agent/try`, { message: 'how much is the whatsapp plan?' }), 200);
    expect(answer.reply).toMatch(/WhatsApp Business AI \(\$499\/month\)/u);
    expect(answer.decision).toBe('answer');
    const hours = expectJson<{ reply: string }>(await manager.post(`/api/v1/clients/${channel.clientId}/agent/try`, { message: 'are you open on saturday?' }), 200);
    expect(hours.reply).toMatch(/Saturday 10:00 AM/u);

    await admin.put(`/api/v1/clients/${channel.clientId}/agent`, { enabled: false });
    await app.services.agents.ensureDemoAgent(widgetId ?? '', TEST_PUBLIC_URL);
    expect(expectJson<AgentView>(await manager.get(`/api/v1/clients/${channel.clientId}/agent`), 200).enabled).toBe(false);
  });
});
