/** `kb:import` and `agents:configure`, in process through `runCommand` with the CLI's own file reading. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { createTestClient } from '../../test/helpers/messaging';
import { CommandError, parseFlags, readFileFlags, runCommand } from './commands';

const run = async (app: TestApp, args: string[]) => {
  const [name, ...rest] = args;
  return runCommand(app.services, name!, await readFileFlags(parseFlags(rest)));
};

describe.each(ENGINES)('agent commands (%s)', (engine) => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-kb-'));
  });
  afterAll(async () => {
    await app.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('kb:import replaces the FAQ from CSV or JSON, trains, and prints the count and when training finished', async () => {
    const client = await createTestClient(app);
    const csv = path.join(dir, 'faq.csv');
    fs.writeFileSync(csv, 'question,answer\nWhen are you open?,9 to 5.\nOpening hours?,9 to 5.\nDo you deliver?,Yes.\n');
    const first = (await run(app, ['kb:import', '--client', client.id, '--file', csv])) as { entries: number; questions: number; trainedAt: string | null };
    expect(first).toMatchObject({ entries: 2, questions: 3, version: 1 });
    expect(first.trainedAt).not.toBeNull();
    expect(await app.services.agents.training(client.id)).toMatchObject({ liveVersion: 1, status: 'idle' });

    const json = path.join(dir, 'faq.json');
    fs.writeFileSync(json, JSON.stringify([{ questions: ['Refunds?'], answer: '30 days.', link: 'https://shop.example/refunds' }]));
    expect(await run(app, ['kb:import', '--client', client.id, '--file', json])).toMatchObject({ entries: 1, questions: 1, version: 2 });
    const rows = await app.database.db.selectFrom('knowledgeEntries').select(['answer', 'link']).where('clientId', '=', client.id).execute();
    expect(rows).toEqual([{ answer: '30 days.', link: 'https://shop.example/refunds' }]);

    await expect(run(app, ['kb:import', '--client', client.id, '--file', path.join(dir, 'missing.csv')])).rejects.toThrow(/--file: cannot read .*ENOENT/u);
    await expect(run(app, ['kb:import', '--client', client.id])).rejects.toThrow(CommandError);
  });

  it('agents:configure sets threshold, delay, escalation and engine, and switches the agent on', async () => {
    const client = await createTestClient(app);
    const agent = await run(app, ['agents:configure', '--client', client.id, '--threshold', '0.7', '--delay', '5', '--escalation', 'off', '--engine', 'embedded']);
    expect(agent).toMatchObject({ clientId: client.id, enabled: true, confidenceThreshold: 0.7, responseDelaySeconds: 5, escalationEnabled: false, engine: 'embedded' });
    await expect(run(app, ['agents:configure', '--client', client.id, '--delay', '61'])).rejects.toThrow(/--delay: Response delay must be between 0 and 60 seconds/u);
    await expect(run(app, ['agents:configure', '--client', client.id, '--threshold', '0.5'])).rejects.toThrow(/--threshold: Use 0.7, 0.8 or 0.9/u);
    await expect(run(app, ['agents:configure', '--client', client.id, '--escalation', 'maybe'])).rejects.toThrow(/--escalation: Use on or off/u);
  });

  it('agents:configure sets how an LLM is used: embedded first (the default) or for every question', async () => {
    const client = await createTestClient(app);
    const first = await run(app, ['agents:configure', '--client', client.id, '--engine', 'openai', '--api-key', 'sk-test-cli-0123456789']);
    expect(first).toMatchObject({ engine: 'openai', llmMode: 'embedded-first' });
    expect(await run(app, ['agents:configure', '--client', client.id, '--llm-mode', 'llm'])).toMatchObject({ engine: 'openai', llmMode: 'llm' });
    await expect(run(app, ['agents:configure', '--client', client.id, '--llm-mode', 'always'])).rejects.toThrow(/--llm-mode: Use embedded-first or llm/u);
  });
});
