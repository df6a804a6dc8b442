import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { summaryView, type SummaryView } from '@common/api/summary';
import { AiInsightsTab, NO_QUESTIONS } from './ai-insights-tab';
import { OverviewCards, RATINGS_NOT_COLLECTED } from './overview-cards';
import { PerformanceTab } from './performance-tab';

const hours = Array.from({ length: 24 }, (_, hour) => ({ key: String(hour), label: `${hour}:00`, conversations: hour === 9 ? 3 : 0, confidence: hour === 9 ? 0.8 : null }));

/** A view as the server sends it, checked against the contract so the fixture cannot drift from it. */
const VIEW: SummaryView = summaryView.parse({
  period: { kind: '24h', from: '2026-03-09T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z' },
  clientId: null,
  timeZone: 'Europe/Paris',
  overview: { totalConversations: 3, averageResponseTime: 3900, aiConfidence: 0.8, escalationRate: 1 / 3, customerSatisfaction: null },
  ratingsCollected: false,
  insights: [
    {
      id: 'faq:1',
      title: 'How much does shipping cost?',
      type: 'trending',
      count: 2,
      trend: 1,
      confidence: 0.9,
      answered: 2,
      handedOff: 0,
      summary: '2 questions: the AI answered 2, handed 0 to a person, +100 % on the period before.',
      missingFromKnowledgeBase: false,
      examples: [],
    },
    {
      id: 'unmatched',
      title: 'Questions the knowledge base does not answer',
      type: 'escalation',
      count: 1,
      trend: null,
      confidence: 0.2,
      answered: 0,
      handedOff: 1,
      summary: '1 question: the AI answered 0, handed 1 to a person, none the period before.',
      missingFromKnowledgeBase: true,
      examples: ['Do you rent bikes?'],
    },
  ],
  performance: { byTimeOfDay: hours, byChannel: [{ key: 'whatsapp', label: 'WhatsApp', conversations: 3, confidence: 0.8 }] },
  generatedAt: '2026-03-10T12:00:00.000Z',
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ');

const render = (node: ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe('the overview', () => {
  it('shows the five figures, the response time as a mean', () => {
    const html = text(render(<OverviewCards view={VIEW} />));
    expect(html).toContain('Total Conversations 3');
    expect(html).toContain('Avg Response Time 1 h 5 min Mean time to the first reply');
    expect(html).toContain('AI Confidence 80%');
    expect(html).toContain('Escalation Rate 33.3%');
    expect(html).toContain(`Customer Satisfaction ${RATINGS_NOT_COLLECTED}`);
  });

  it('writes a collected satisfaction out of 5', () => {
    const html = text(render(<OverviewCards view={{ ...VIEW, ratingsCollected: true, overview: { ...VIEW.overview, customerSatisfaction: 4.25 } }} />));
    expect(html).toContain('Customer Satisfaction 4.3 / 5');
  });
});

describe('the AI insights', () => {
  it('lists each topic with its type, figures and summary', () => {
    const html = text(render(<AiInsightsTab topics={VIEW.insights} knowledgeBaseHref={null} />));
    expect(html).toContain('How much does shipping cost? Trending Questions 2 Trend +100 % Confidence 90%');
    expect(html).toContain('2 questions: the AI answered 2');
  });

  it('flags the unmatched questions as missing from the knowledge base, in the customers’ words', () => {
    const html = render(<AiInsightsTab topics={VIEW.insights} knowledgeBaseHref="/agents" />);
    expect(text(html)).toContain('Questions the knowledge base does not answer Escalation Missing from the knowledge base Questions 1 Trend new');
    expect(html).toContain('<q class="italic">Do you rent bikes?</q>');
    expect(text(html)).toContain("Add an entry for these questions on the AI agent's knowledge base page.");
    expect(html).toContain('href="/agents"');
    expect(html).not.toMatch(/create faq/iu);
  });

  it('offers no agents link to a user who may not open that page', () => {
    const html = render(<AiInsightsTab topics={VIEW.insights} knowledgeBaseHref={null} />);
    expect(html).not.toContain('href="/agents"');
    expect(text(html)).not.toContain('knowledge base page');
  });

  it('says plainly when the period has no questions', () => {
    expect(text(render(<AiInsightsTab topics={[]} knowledgeBaseHref={null} />))).toContain(NO_QUESTIONS);
  });
});

describe('the performance', () => {
  it('has a table of the 24 hours and one of the channels, with conversations and confidence', () => {
    const html = render(<PerformanceTab view={VIEW} />);
    expect(html).toContain('aria-label="Conversations by time of day"');
    expect(html).toContain('aria-label="Conversations by channel"');
    expect(html.match(/<th scope="row"/gu)).toHaveLength(25);
    expect(text(html)).toContain('9:00 3 80%');
    expect(text(html)).toContain('WhatsApp 3 80%');
  });
});
