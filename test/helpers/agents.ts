/** Test setup for the AI agent: a small shop's FAQ and a client whose website chat it answers. */
import type { UpdateAgentInput } from '../../common/api/agents';
import type { ChannelKind } from '../../server/db/schema';
import type { TestApp } from './app';
import { STORE_FAQ } from '../fixtures/store-faq';
import { createTestChannel, createTestClient } from './messaging';

export { STORE_FAQ };

/**
 * A client with one channel (website chat unless told) and STORE_FAQ, its agent enabled with no
 * response delay (and `config` on top), once the knowledge base has trained.
 */
export async function createAgentClient(app: TestApp, config: UpdateAgentInput = {}, kind: ChannelKind = 'webchat') {
  const client = await createTestClient(app);
  const channel = await createTestChannel(app, { clientId: client.id, kind });
  await app.services.agents.importKnowledge(client.id, { format: 'json', content: JSON.stringify(STORE_FAQ), mode: 'replace' });
  await app.services.agents.updateAgent(client.id, { enabled: true, responseDelaySeconds: 0, ...config });
  await app.queue.waitForIdle();
  return { client, channel };
}
