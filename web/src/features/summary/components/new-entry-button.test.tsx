import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { summaryTopic, type SummaryTopic } from '@common/api/summary';
import { newKnowledgeEntryOf } from '@/lib/knowledge-entry-link';
import { AiInsightsTab, newEntryHrefOf } from './ai-insights-tab';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';

/** A group of unmatched questions as the server sends it. */
const PARKING: SummaryTopic = summaryTopic.parse({
  id: 'unmatched:7d1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c',
  title: 'Where can I park my car?',
  type: 'escalation',
  count: 5,
  trend: 1.5,
  confidence: 0.24,
  answered: 0,
  handedOff: 3,
  summary: '5 questions: the AI answered 0, handed 3 to a person, +150 % on the period before.',
  missingFromKnowledgeBase: true,
  examples: ['Do you have a car park?', 'Can I park outside the shop?', 'Where do customers park?'],
  clientId: CLIENT,
  suggestedQuestion: 'Where can I park my car?',
  variants: ['Do you have a car park?', 'Can I park outside the shop?', 'Where do customers park?', 'Is there parking near the shop?'],
});
const PAIR: SummaryTopic = { ...PARKING, id: 'unmatched:other', title: 'Do you rent bikes?', count: 2, missingFromKnowledgeBase: false, suggestedQuestion: 'Do you rent bikes?', variants: ['Can I rent a bike?'] };
const REST: SummaryTopic = { ...PARKING, id: 'unmatched', title: 'Other questions the knowledge base does not answer', count: 2, missingFromKnowledgeBase: false, suggestedQuestion: null, variants: [] };

const render = (canAddEntries: boolean, knowledgeBaseHref: string | null = '/agents') =>
  renderToStaticMarkup(
    <MemoryRouter>
      <AiInsightsTab topics={[PARKING, PAIR, REST]} knowledgeBaseHref={knowledgeBaseHref} canAddEntries={canAddEntries} />
    </MemoryRouter>,
  );
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/gu)].map((m) => m[1]!.replaceAll('&amp;', '&'));

describe('"New FAQ entry" on a topic missing from the knowledge base', () => {
  it('links to the topic’s client’s knowledge base with its representative question first, then the other wordings', () => {
    const href = newEntryHrefOf(PARKING)!;
    const search = new URLSearchParams(href.slice(href.indexOf('?') + 1));
    expect(href.startsWith('/settings?')).toBe(true);
    expect(search.get('client')).toBe(CLIENT);
    expect(search.get('section')).toBe('knowledge');
    expect(newKnowledgeEntryOf(search)).toEqual([PARKING.suggestedQuestion, ...PARKING.variants]);
  });

  it('shows the button to administrators on the missing topics only', () => {
    const html = render(true);
    expect(html.match(/New FAQ entry/gu)).toHaveLength(2); // its label and its text
    expect(html).toContain('aria-label="New FAQ entry: Where can I park my car?"');
    expect(hrefs(html)).toEqual([newEntryHrefOf(PARKING)]);
    expect(newEntryHrefOf(PAIR)).toBeNull();
    expect(newEntryHrefOf(REST)).toBeNull();
  });

  it('is not offered to people who cannot write the knowledge base, nor on a read-only page', () => {
    const manager = render(false);
    expect(manager).not.toContain('New FAQ entry');
    // Staff who are not administrators keep the way to the AI agents page.
    expect(hrefs(manager)).toEqual(['/agents']);
    expect(render(true, null)).not.toContain('New FAQ entry');
  });
});
