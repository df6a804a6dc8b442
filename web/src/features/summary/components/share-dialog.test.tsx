import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SHARE_GONE_MESSAGE, sharedSummaryView, summaryShare, type SummaryShare } from '@common/api/summary-shares';
import { summaryView } from '@common/api/summary';
import { EXPIRY_LABELS, NewShareLink, NO_SHARES, ShareExpiryField, ShareLinkList, shareStatusText, shareSummaryText } from './share-dialog';
import { SharedSummaryContent, SharedSummaryGone, sharedBannerText } from './shared-summary-screen';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ');

const render = (node: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

/** A link as the server lists it, checked against the contract so the fixture cannot drift from it. */
const SHARE: SummaryShare = summaryShare.parse({
  id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
  period: { kind: '7d', from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z' },
  clientId: '6f1c2a40-0000-4b5e-9a51-5a7e1e000003',
  clientName: 'Alpha Bikes',
  createdBy: { id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000002', name: 'Ada Admin' },
  createdAt: '2026-03-10T12:00:00.000Z',
  expiresAt: '2026-03-17T12:00:00.000Z',
  revokedAt: null,
  status: 'active',
});
const URL = 'https://parley.example/shared/summary/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('the share link list', () => {
  it('shows what each link shares, until when, and Revoke only for active links', () => {
    const revoked = { ...SHARE, id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000009', status: 'revoked' as const, revokedAt: '2026-03-11T09:00:00.000Z', clientId: null, clientName: null };
    const html = render(<ShareLinkList shares={[SHARE, revoked]} showCreator={false} />);
    expect(html).toContain('aria-label="Share links"');
    expect(text(html)).toContain('Last 7 days: ');
    expect(text(html)).toContain(' · Alpha Bikes');
    expect(text(html)).toContain(' · All clients');
    expect(text(html)).toContain('Active Expires ');
    expect(text(html)).toContain('Revoked Revoked ');
    expect(html.match(/>Revoke<\/button>/gu)).toHaveLength(1);
    expect(html).toContain(`aria-label="Revoke the link to ${shareSummaryText(SHARE)}"`);
    expect(html).not.toContain('Ada Admin');
  });

  it('names who made each link for an administrator, who sees everyone’s', () => {
    expect(render(<ShareLinkList shares={[SHARE]} showCreator />)).toContain('by Ada Admin');
  });

  it('says so when there is no link', () => {
    expect(render(<ShareLinkList shares={[]} showCreator={false} />)).toContain(NO_SHARES);
  });

  it('words each status', () => {
    expect(shareStatusText(SHARE)).toMatch(/^Active · expires /u);
    expect(shareStatusText({ ...SHARE, status: 'expired' })).toMatch(/^Expired /u);
    expect(shareStatusText({ ...SHARE, status: 'revoked', revokedAt: '2026-03-11T09:00:00.000Z' })).toMatch(/^Revoked /u);
  });
});

describe('creating a link', () => {
  it('offers 1, 7 or 30 days, the chosen one checked', () => {
    const html = render(<ShareExpiryField value={7} />);
    expect(text(html)).toContain('Link expires after');
    for (const label of Object.values(EXPIRY_LABELS)) expect(text(html)).toContain(label);
    expect(html.match(/type="radio"/gu)).toHaveLength(3);
    expect(html.match(/checked=""/gu)).toHaveLength(1);
    expect(/<input[^>]*value="7"[^>]*>/u.exec(html)?.[0]).toContain('checked=""');
  });

  it('shows the new link once, with a copy button, and says it cannot be shown again', () => {
    const html = render(<NewShareLink created={{ share: SHARE, token: 'token', url: URL }} />);
    expect(html).toContain(`value="${URL}"`);
    expect(html).toContain('aria-label="Copy Share link"');
    expect(text(html)).toContain('Copy this link now');
    expect(text(html)).toContain('cannot show it again');
  });
});

describe('the shared page', () => {
  const VIEW = sharedSummaryView.parse({
    summary: summaryView.parse({
      period: SHARE.period,
      clientId: SHARE.clientId,
      timeZone: 'UTC',
      overview: { totalConversations: 3, averageResponseTime: 20, aiConfidence: 0.8, escalationRate: 0, customerSatisfaction: 4.5 },
      ratingsCollected: true,
      insights: [],
      performance: { byTimeOfDay: [], byChannel: [] },
      generatedAt: '2026-03-12T12:00:00.000Z',
    }),
    trends: [],
    share: { clientName: 'Alpha Bikes', createdAt: SHARE.createdAt, expiresAt: SHARE.expiresAt },
  });

  it('says it is a read-only view and until when, and offers neither Share nor Export', () => {
    const html = render(<SharedSummaryContent view={VIEW} renderTrends={() => <p>trends here</p>} />);
    expect(text(html)).toContain(sharedBannerText(SHARE.expiresAt));
    expect(sharedBannerText(SHARE.expiresAt)).toMatch(/^Shared read-only view · expires /u);
    expect(text(html)).toContain('AI Summary Alpha Bikes');
    expect(text(html)).toContain('Total Conversations 3');
    expect(html).not.toMatch(/>\s*Share\s*</u);
    expect(html).not.toContain('Export');
    expect(html).not.toContain('Refresh');
  });

  it('says plainly when the link no longer works', () => {
    expect(text(render(<SharedSummaryGone />))).toContain(SHARE_GONE_MESSAGE);
  });
});
