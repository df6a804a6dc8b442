import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { insightsView, type InsightsView } from '@common/api/insights';
import { ClientsTable } from './clients-table';
import { MetricCards, RATINGS_NOT_COLLECTED } from './metric-cards';
import { PerformanceTab } from './performance-tab';
import { EMAILED_REPORTS, ReportsTab } from './reports-tab';
import { TrendsTab } from './trends-tab';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';
const totals = { conversations: 12, messages: 40, answered: 11, resolved: 8, automated: 5, handedOff: 3, reopened: 1, ratings: 0, satisfied: 0 };

/** A view as the server sends it, checked against the contract so the fixture cannot drift from it. */
const VIEW: InsightsView = insightsView.parse({
  period: { kind: '7d', from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z' },
  previous: { from: '2026-02-24T12:00:00.000Z', to: '2026-03-03T12:00:00.000Z' },
  clientId: null,
  metrics: {
    conversations: { value: 12, previous: 8 },
    medianFirstResponseSeconds: { value: 3900, previous: null },
    automatedResolutionRate: { value: 0.5, previous: 0.25 },
    satisfaction: { value: null, previous: null },
  },
  totals,
  medians: { firstResponseSeconds: 3900, firstResponseBusinessSeconds: 180, resolutionSeconds: 7200, resolutionBusinessSeconds: 3600 },
  ratingsCollected: false,
  agents: [
    { id: `ai:${CLIENT}`, kind: 'ai', name: 'Bliss Helper', clientName: 'Bakery Bliss', conversations: 9, resolved: 6, resolutionRate: 0.667, medianFirstResponseSeconds: 4, satisfaction: null, ratings: 0 },
    { id: '4f1c2a8e-3b7d-4c6e-9a1f-000000000001', kind: 'person', name: 'Ada Admin', clientName: null, conversations: 3, resolved: 2, resolutionRate: null, medianFirstResponseSeconds: null, satisfaction: null, ratings: 0 },
  ],
  clients: [
    { clientId: CLIENT, name: 'Bakery Bliss', status: 'active', totals, medianFirstResponseSeconds: 42, medianResolutionSeconds: 7200, automatedResolutionRate: 0.4167, handoffRate: 0.25, satisfaction: null },
    { clientId: '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b70', name: 'Apex Tools', status: 'inactive', totals: { ...totals, conversations: 0, messages: 0 }, medianFirstResponseSeconds: null, medianResolutionSeconds: null, automatedResolutionRate: null, handoffRate: null, satisfaction: null },
  ],
  distribution: {
    clientsByStatus: [
      { key: 'active', label: 'Active', count: 1 },
      { key: 'inactive', label: 'Inactive', count: 1 },
    ],
    conversationsByChannel: [{ key: 'whatsapp', label: 'WhatsApp', count: 12 }],
  },
  trends: ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'].map((month, i) => ({
    month,
    conversations: i === 5 ? 12 : 0,
    messages: i === 5 ? 40 : 0,
    automatedResolutionRate: i === 5 ? 0.4167 : null,
    satisfaction: null,
  })),
  generatedAt: '2026-03-10T12:00:00.000Z',
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ');

describe('the metric cards', () => {
  it('show the period’s figures with their change, and the median honestly named', () => {
    const html = text(renderToStaticMarkup(<MetricCards view={VIEW} />));
    expect(html).toContain('Total Conversations 12');
    expect(html).toContain('Up 50% vs. previous period');
    expect(html).toContain('Median First Response 1 h 5 min 3 min within business hours');
    expect(html).toContain('Automated Resolution 50%');
    expect(html).toContain('Up 25 pp');
  });

  it('say that ratings are not collected instead of inventing a satisfaction figure', () => {
    const html = text(renderToStaticMarkup(<MetricCards view={VIEW} />));
    expect(html).toContain(`Customer Satisfaction ${RATINGS_NOT_COLLECTED}`);
    expect(html).not.toMatch(/\/ 5/u);
  });

  it('mark a change as new when the previous period had none, and a dash when there is nothing to compare', () => {
    const html = text(
      renderToStaticMarkup(
        <MetricCards view={{ ...VIEW, metrics: { ...VIEW.metrics, conversations: { value: 4, previous: 0 } } }} />,
      ),
    );
    expect(html).toContain('Total Conversations 4 new');
    expect(html).toContain('Nothing to compare with the previous period');
  });
});

describe('the tabs', () => {
  it('Performance lists every agent with what kind it is, and the distributions as tables', () => {
    const html = renderToStaticMarkup(<PerformanceTab view={VIEW} />);
    expect(text(html)).toContain('Bliss Helper AI Bakery Bliss 9 66.7% 4 s —');
    expect(text(html)).toContain('Ada Admin Person 3 — — —');
    expect(html).toContain('aria-label="Conversations by channel"');
    expect(html).toContain('aria-label="Clients by status"');
  });

  it('Clients is sorted by conversations, says so with aria-sort, and scrolls inside its own box', () => {
    const html = renderToStaticMarkup(<ClientsTable clients={VIEW.clients} ratingsCollected={false} />);
    expect(html).toMatch(/aria-sort="descending"[^>]*><button[^>]*>Conversations/u);
    expect(html.match(/aria-sort="none"/gu)).toHaveLength(8);
    expect(html).toContain('overflow-x-auto');
    expect(text(html).indexOf('Bakery Bliss')).toBeLessThan(text(html).indexOf('Apex Tools'));
    expect(text(html)).toContain('Bakery Bliss Active 12 40 41.7% 25% 42 s 2 h —');
  });

  it('Trends has six months with zeros where nothing happened, and no satisfaction while ratings are not collected', () => {
    const html = renderToStaticMarkup(<TrendsTab trends={VIEW.trends} ratingsCollected={false} />);
    expect(html.match(/<th scope="row"/gu)).toHaveLength(12);
    expect(text(html)).toMatch(/Mar 2026 12 40/u);
    expect(text(html)).toMatch(/Oct 2025 0 0/u);
    expect(html).not.toContain('Customer satisfaction by month');
    expect(text(html)).toContain(RATINGS_NOT_COLLECTED);
  });

  it('Reports links the CSV and the PDF of the period and where to choose the e-mailed reports', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ReportsTab exportUrl="/api/v1/insights/export.csv?period=7d" pdfUrl="/api/v1/insights/report.pdf?period=7d" periodText="Last 7 days" />
      </MemoryRouter>,
    );
    expect(html).toContain('href="/api/v1/insights/export.csv?period=7d" download=""');
    expect(html).toContain('href="/api/v1/insights/report.pdf?period=7d" download=""');
    expect(text(html)).toContain('Download CSV');
    expect(text(html)).toContain('Download PDF');
    expect(text(html)).toContain(EMAILED_REPORTS);
    expect(html).toContain('href="/profile?tab=notifications"');
    expect(text(html)).not.toContain('PDF reports');
  });
});
