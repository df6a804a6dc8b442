import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { READINESS_CATEGORIES, readinessView, type ReadinessItem, type ReadinessStatus, type ReadinessView } from '@common/api/readiness';
import { actionItems, ReadinessReport } from './readiness-report';
import { ReadinessBody } from './readiness-screen';

const AT = '2026-05-01T12:00:00.000Z';

/** 24 items, three per category; `statuses` overrides some by key. */
function view(statuses: Record<string, ReadinessStatus> = {}): ReadinessView {
  const items: ReadinessItem[] = READINESS_CATEGORIES.flatMap((category) =>
    [1, 2, 3].map((n) => {
      const key = `${category.toLowerCase()}-${n}`;
      const status = statuses[key] ?? 'complete';
      return {
        key,
        category,
        item: `${category} item ${n}`,
        status,
        description: `What ${category} item ${n} checks.`,
        reason: `Measured for ${category} item ${n}.`,
        action: status === 'complete' ? null : { kind: 'link' as const, label: `Fix ${category} item ${n}`, path: '/admin?tab=content' },
        statusSince: AT,
      };
    }),
  );
  const complete = items.filter((i) => i.status === 'complete').length;
  const score = Math.round((complete / 24) * 100);
  // Parsed with the contract, so the fixture cannot drift from what the server sends.
  return readinessView.parse({
    score,
    ready: score >= 90,
    threshold: 90,
    counts: {
      complete,
      attention: items.filter((i) => i.status === 'needs-attention').length,
      critical: items.filter((i) => i.status === 'critical').length,
      total: 24,
    },
    items,
    checkedAt: AT,
    previous: { score: 100, checkedAt: '2026-04-30T06:00:00.000Z' },
  });
}

const html = (node: ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);
const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ');
const noop = () => undefined;

describe('the production readiness report', () => {
  it('shows Production Ready at 90% or more, with the score ring and the counts', () => {
    const ready = view({ 'security-1': 'needs-attention', 'seo-3': 'critical' });
    expect(ready.score).toBe(92);
    const markup = html(<ReadinessReport view={ready} onSendTestEmail={noop} sendingTestEmail={false} />);
    expect(markup).toContain('aria-label="Overall score 92%"');
    expect(text(markup)).toContain('Production Ready');
    expect(text(markup)).not.toContain('Complete remaining items');
    expect(text(markup)).toMatch(/Complete 22 of 24 items Needs attention 1 of 24 items Critical 1 of 24 items/u);
    expect(text(markup)).toContain('The check before, on');
  });

  it('shows the Complete remaining items notice below 90%', () => {
    const notReady = view({ 'security-1': 'critical', 'security-2': 'critical', 'email-1': 'needs-attention' });
    expect(notReady.score).toBe(88);
    const content = text(html(<ReadinessReport view={notReady} onSendTestEmail={noop} sendingTestEmail={false} />));
    expect(content).toContain('Complete remaining items');
    expect(content).toContain('21 of 24 items are complete; Production Ready takes 90% (22 items).');
    expect(content).not.toMatch(/Overall score\s+Production Ready/u);
  });

  it('lists action items critical first, each with what was measured and the screen that fixes it', () => {
    const v = view({ 'ux-2': 'needs-attention', 'monitoring-1': 'critical' });
    expect(actionItems(v.items).map((i) => i.key)).toEqual(['monitoring-1', 'ux-2']);
    const markup = html(<ReadinessReport view={v} onSendTestEmail={noop} sendingTestEmail={false} />);
    const actions = markup.slice(markup.indexOf('Action items'), markup.indexOf('aria-label="Checklist"'));
    expect(text(actions)).toMatch(/Monitoring item 1 · Monitoring Measured for Monitoring item 1\. Fix Monitoring item 1/u);
    expect(text(actions).indexOf('Monitoring item 1')).toBeLessThan(text(actions).indexOf('UX item 2'));
    expect(actions).toContain('href="/admin?tab=content"');
  });

  it('offers the test e-mail as a button and an operator’s fix as an instruction', () => {
    const v = view({ 'email-2': 'needs-attention', 'technical-1': 'critical' });
    const items = v.items.map((item) => {
      if (item.key === 'email-2') return { ...item, action: { kind: 'send-test-email' as const, label: 'Send a test e-mail', path: null } };
      if (item.key === 'technical-1') return { ...item, action: { kind: 'instruction' as const, label: 'Set SECRETS_KEY and restart', path: null } };
      return item;
    });
    const markup = html(<ReadinessReport view={{ ...v, items }} onSendTestEmail={noop} sendingTestEmail={false} />);
    expect(markup).toMatch(/<button[^>]*>.*Send a test e-mail<\/button>/u);
    expect(text(markup)).toContain('To fix: Set SECRETS_KEY and restart');
    expect(text(html(<ReadinessReport view={{ ...v, items }} onSendTestEmail={noop} sendingTestEmail />))).toContain('Sending…');
  });

  it('groups the checklist by the eight categories, with each item’s status and reason', () => {
    const markup = html(<ReadinessReport view={view({ 'content-3': 'critical' })} onSendTestEmail={noop} sendingTestEmail={false} />);
    const checklist = markup.slice(markup.indexOf('aria-label="Checklist"'));
    const headings = [...checklist.matchAll(/<h3[^>]*>([^<]+)<\/h3>/gu)].map((m) => m[1]);
    expect(headings).toEqual([...READINESS_CATEGORIES]);
    expect(text(checklist)).toContain('Content 2 of 3 complete');
    expect(text(checklist)).toContain('Critical: Content item 3 Critical Measured for Content item 3.');
    expect(checklist.match(/data-status="complete"/gu)).toHaveLength(23);
  });

  it('says there is nothing to do when every item is complete', () => {
    const content = text(html(<ReadinessReport view={view()} onSendTestEmail={noop} sendingTestEmail={false} />));
    expect(content).toContain('Nothing to do: every item is complete.');
    expect(content).toContain('Production Ready');
  });
});

describe('the screen’s states', () => {
  it('shows a spinner while the first check runs', () => {
    const content = text(html(<ReadinessBody view={undefined} error={null} updating={false} onRetry={noop} onSendTestEmail={noop} sendingTestEmail={false} />));
    expect(content).toContain('Checking the installation');
  });

  it('shows the error with Try Again when the check failed', () => {
    const markup = html(<ReadinessBody view={undefined} error={new Error('Network error')} updating={false} onRetry={noop} onSendTestEmail={noop} sendingTestEmail={false} />);
    expect(text(markup)).toContain('Error checking production readiness: Network error');
    expect(markup).toMatch(/<button[^>]*>Try Again<\/button>/u);
  });

  it('keeps the report on screen, marked busy, while a Re-check runs', () => {
    const markup = html(<ReadinessBody view={view()} error={null} updating onRetry={noop} onSendTestEmail={noop} sendingTestEmail={false} />);
    expect(markup).toContain('aria-busy="true"');
    expect(text(markup)).toContain('Overall score');
  });
});
