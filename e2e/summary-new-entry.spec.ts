/**
 * The AI Summary's topics of unanswered questions (issue 16 §3; docs/insights.md "Topics of
 * unanswered questions"): customers ask a client's AI agent, which answers from a small shop FAQ,
 * about parking in different words; the summary shows them as one topic missing from the knowledge
 * base, and its "New FAQ entry" opens the client's knowledge base with a new entry's form filled
 * in with their questions — saved only when the administrator writes the answer and adds it.
 */
import { STORE_FAQ as FAQ } from '../test/fixtures/store-faq';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createWhatsAppChannel, deliverWhatsAppText, unique, waId, type Api } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

// Five wordings of one question the FAQ does not answer. The embedded engine may still match one
// or two to an entry with some confidence ("Where can I park my car?" to "Where is my order?"):
// those are not unmatched, so the test asks for a topic of at least three of them.
const PARKING = [
  'Where can I park my car?',
  'Do you have a car park?',
  'Can I park my car outside the shop?',
  'Is there a car park for customers?',
  'Can I leave my car in your car park?',
];

interface SummaryTopics {
  insights: { title: string; count: number; missingFromKnowledgeBase: boolean; suggestedQuestion: string | null; variants: string[] }[];
}

/** The client's agent on, answering at once, from the FAQ; resolves once the knowledge is live. */
async function agentWithFaq(api: Api, clientId: string): Promise<void> {
  await api.post(`/api/v1/clients/${clientId}/knowledge/import`, { format: 'json', content: JSON.stringify(FAQ), mode: 'replace' }, 200);
  const csrf = (await api.request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
  const response = await api.request.put(`/api/v1/clients/${clientId}/agent`, { data: { enabled: true, responseDelaySeconds: 0 }, headers: { 'x-csrf-token': csrf } });
  expect(response.status(), await response.text()).toBe(200);
  await expect
    .poll(async () => (await api.get<{ training: { liveVersion: number | null } }>(`/api/v1/clients/${clientId}/agent`)).training.liveVersion, { timeout: 30_000 })
    .not.toBeNull();
}

test.describe('AI Summary: a topic missing from the knowledge base', () => {
  test('an admin starts a new FAQ entry from the customers’ questions', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const shop = await createClient(api, unique('Summary Parking Shop'));
      const channel = await createWhatsAppChannel(api, shop.id);
      await agentWithFaq(api, shop.id);
      for (const text of PARKING) await deliverWhatsAppText(api.request, channel, { from: waId(), name: unique('Parking Customer'), text });
      // A topic missing from the knowledge base: at least three of the wordings, nothing else.
      await expect
        .poll(
          async () => {
            const view = await api.get<SummaryTopics>(`/api/v1/summary?period=24h&clientId=${shop.id}`);
            const topic = view.insights.find((t) => t.missingFromKnowledgeBase);
            if (!topic) return null;
            const questions = [topic.suggestedQuestion, ...topic.variants];
            return topic.count >= 3 && questions.length === topic.count && questions.every((q) => PARKING.includes(q ?? ''));
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      const view = await api.get<SummaryTopics>(`/api/v1/summary?period=24h&clientId=${shop.id}`);
      const parking = view.insights.find((t) => t.missingFromKnowledgeBase)!;

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto(`/summary?client=${shop.id}`);
      const card = page.getByRole('region', { name: parking.title });
      await expect(card.getByText('Missing from the knowledge base')).toBeVisible();
      await card.getByRole('link', { name: `New FAQ entry: ${parking.title}` }).click();

      // The client's knowledge base, the new entry's form open with the questions, in order.
      await expect(page).toHaveURL(new RegExp(`/settings\\?tab=agents&client=${shop.id}&section=knowledge&newEntry=1`, 'u'));
      const dialog = page.getByRole('dialog', { name: 'Add FAQ Entry' });
      await expect(dialog).toBeVisible();
      for (const [i, question] of [parking.suggestedQuestion!, ...parking.variants].entries()) {
        await expect(dialog.getByRole('textbox', { name: `Example question ${i + 1}` })).toHaveValue(question);
      }
      // Nothing is saved without an answer.
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect(dialog.getByText('Answer is required')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Answer' }).fill('Free parking behind the shop.');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect(dialog).toBeHidden();
      // The link's state is gone: a reload does not open the form again.
      await expect(page).not.toHaveURL(/newEntry/u);
      await expect(page.getByRole('table', { name: 'FAQ entries' }).getByText(parking.suggestedQuestion!)).toBeVisible();
    } finally {
      await api.dispose();
    }
  });
});
