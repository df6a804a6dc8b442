/** Test setup for the AI agent: a small shop's FAQ and a client whose website chat it answers. */
import type { UpdateAgentInput } from '../../common/api/agents';
import type { ChannelKind } from '../../server/db/schema';
import type { TestApp } from './app';
import { createTestChannel, createTestClient } from './messaging';

/** Four entries, five example questions each (the embedded engine's softmax classifier). */
export const STORE_FAQ = [
  {
    questions: ['What are your opening hours?', 'When are you open?', 'What time do you open?', 'Are you open on Sunday?', 'What time do you close?'],
    answer: 'We are open Monday to Saturday, 9:00 to 18:00.',
  },
  {
    questions: ['How much does shipping cost?', 'What are the delivery fees?', 'Is shipping free?', 'How much is delivery?', 'Do you charge for shipping?'],
    answer: 'Shipping is free over 50 euros, otherwise 4.90.',
  },
  {
    questions: ['How do I get a refund?', 'Can I return my order?', 'What is your refund policy?', 'I want my money back', 'How do returns work?'],
    answer: 'You can return any item within 30 days for a full refund.',
  },
  {
    questions: ['Where is my order?', 'Track my package', 'My parcel has not arrived', 'How can I track my delivery?', 'Order status please'],
    answer: 'You can track your order with the link in your confirmation e-mail.',
  },
];

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
