/**
 * What the agent understood (issue 12 §4 and §5): signed WhatsApp deliveries reach a client whose
 * AI agent answers from a small FAQ; the thread header shows what the customer wants (the matched
 * entry's title), the sentiment in words, the priority with the keyword that raised it, the entry
 * the answer came from and, for an escalation, why — and the list shows the same in short. On a
 * phone (390 px) the thread does not scroll sideways.
 *
 * The agent's replies go nowhere (no Graph API here), which does not matter: what it understood is
 * recorded when it answers, before the send.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { type Api, apiAs, createClient, createWhatsAppChannel, deliverWhatsAppText, literal, unique, waId } from './support/messaging';
import { STORE_FAQ as FAQ } from '../test/fixtures/store-faq';
import { ADMIN, signInPage } from './support/users';


/** The client's agent on, answering at once, from FAQ; resolves once the knowledge is live. */
async function agentWithFaq(api: Api, clientId: string): Promise<void> {
  await api.post(`/api/v1/clients/${clientId}/knowledge/import`, { format: 'json', content: JSON.stringify(FAQ), mode: 'replace' }, 200);
  const csrf = (await api.request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
  const response = await api.request.put(`/api/v1/clients/${clientId}/agent`, {
    data: { enabled: true, responseDelaySeconds: 0 },
    headers: { 'x-csrf-token': csrf },
  });
  expect(response.status(), await response.text()).toBe(200);
  await expect
    .poll(async () => (await api.get<{ training: { liveVersion: number | null } }>(`/api/v1/clients/${clientId}/agent`)).training.liveVersion, { timeout: 30_000 })
    .not.toBeNull();
}

async function openConversation(page: Page, name: string) {
  const item = page.getByRole('link', { name: literal(name) });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  return page.getByRole('region', { name: 'What the agent understood' });
}

/** Whether the page is wider than the viewport (scrolls sideways). */
async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) > document.documentElement.clientWidth);
}

test.describe('what the agent understood', () => {
  test('the thread shows the summary, sentiment, priority reason, matched entry and why it was escalated', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const client = await createClient(api, unique('Cycle Shop'));
      const channel = await createWhatsAppChannel(api, client.id);
      await agentWithFaq(api, client.id);

      // One customer asks an FAQ question the agent answers; another is urgent and asks for a person.
      const asker = unique('Ana Asker');
      const urgent = unique('Uri Urgent');
      await deliverWhatsAppText(api.request, channel, { from: waId(), name: asker, text: 'How much does shipping cost?' });
      await deliverWhatsAppText(api.request, channel, { from: waId(), name: urgent, text: 'URGENT: can I talk to a human please?' });

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/conversations');

      // The answered one: what the customer wants is the matched entry, the answer came from it.
      const answered = await openConversation(page, asker);
      await expect(answered.getByTestId('understanding-request')).toContainText('Topic: How much does shipping cost?', { timeout: 20_000 });
      await expect(answered.getByTestId('understanding-entry')).toContainText('How much does shipping cost?');
      await expect(answered.getByTestId('understanding-sentiment')).toContainText(/Positive|Neutral|Negative/u);
      await expect(answered.getByTestId('understanding-priority')).toContainText('Low priority');
      await expect(answered.getByTestId('understanding-summary')).toContainText('Answered by the AI.');
      await expect(answered.getByTestId('understanding-escalation')).toHaveCount(0);

      // The urgent one: the keyword is the priority's reason, and the hand-off says why.
      const escalated = await openConversation(page, urgent);
      await expect(escalated.getByTestId('understanding-priority')).toContainText('High priority', { timeout: 20_000 });
      await expect(escalated.getByTestId('understanding-priority')).toContainText('Keyword “urgent”');
      await expect(escalated.getByTestId('understanding-escalation')).toContainText('The customer asked for a person');
      await expect(escalated.getByTestId('understanding-request')).toContainText('talk to a human');

      // The list says the same in short.
      const row = page.getByRole('link', { name: literal(urgent) });
      await expect(row.getByTestId('conversation-priority')).toContainText('High priority · Keyword “urgent”');
      await expect(row.getByTestId('conversation-request')).toContainText('talk to a human');
      await expect(page.getByRole('link', { name: literal(asker) }).getByTestId('conversation-request')).toContainText('Topic: How much does shipping cost?');

      // On a phone, the thread with all of it does not scroll sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(page.getByRole('region', { name: 'What the agent understood' }).getByTestId('understanding-escalation')).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
    } finally {
      await api.dispose();
    }
  });
});
