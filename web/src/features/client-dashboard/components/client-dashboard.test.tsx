import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ClientDashboardView } from '@common/api/client-dashboard';
import type { CurrentUser } from '@common/api/users';
import { clientDashboardKeys } from '../api/keys';
import { ClientDashboard } from './client-dashboard';

const CLIENT_ID = '6f1c2a40-0000-4b5e-9a51-5a7e1e000002';
const CONVERSATION_ID = '6f1c2a40-0000-4b5e-9a51-5a7e1e0000c1';

const user: CurrentUser = {
  id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
  email: 'owner@shop.test',
  name: 'Olivia Owner',
  role: 'client',
  avatarUrl: null,
  phone: null,
  company: null,
  clientId: CLIENT_ID,
  emailVerified: true,
  mfaEnabled: false,
  createdAt: '2026-01-01T10:00:00.000Z',
  lastLogin: null,
};

function view(over: Partial<ClientDashboardView> = {}): ClientDashboardView {
  return {
    client: { id: CLIENT_ID, companyName: 'Harbour Bikes', status: 'active', createdAt: '2026-01-01T10:00:00.000Z', automationPausedAt: null, automationPausedBy: null },
    plan: { offerId: 'whatsapp-business', offerName: 'WhatsApp Business AI', activeSince: '2026-02-01T09:00:00.000Z', pastDue: false },
    subscriptionStatus: 'active',
    period: { from: '2026-03-02', to: '2026-03-31', days: 30 },
    metrics: {
      totalMessages: 1247,
      conversations: 3,
      answeredConversations: 2,
      responseRate: 2 / 3,
      avgResponseSeconds: 72,
      leadsGenerated: 4,
      convertedLeads: 1,
      conversionRate: 0.25,
    },
    daily: [{ day: '2026-03-31', messages: 1247, conversations: 3, answered: 2, avgResponseSeconds: 72 }],
    recentConversations: [
      {
        id: CONVERSATION_ID,
        customerName: 'Ana Lima',
        platform: 'whatsapp',
        lastMessage: 'Do you have the blue bike in stock?',
        timestamp: '2026-03-31T09:00:00.000Z',
        status: 'lead',
        sentiment: 'positive',
        isLead: true,
        convertedAt: null,
      },
    ],
    settings: { autoResponse: true, leadQualification: true, businessHours: null, outsideHours: 'answer', awayText: 'We are closed.' },
    goLive: { channels: 1, channelKinds: ['whatsapp'], knowledgeLive: true, liveEntries: 12, training: false },
    generatedAt: '2026-03-31T10:00:00.000Z',
    ...over,
  };
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

function render(data: ClientDashboardView, options: { billing?: boolean; who?: CurrentUser; path?: string } = {}): string {
  const client = new QueryClient();
  client.setQueryData(clientDashboardKeys.detail(CLIENT_ID), data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[options.path ?? '/client-dashboard']}>
        <ClientDashboard user={options.who ?? user} {...(options.billing ? { renderBilling: () => <p>Billing of the client</p> } : {})} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The opening tag of the Turn On Auto-Response button. */
const turnOn = (html: string) => /<button[^>]*>(?=Turn On Auto-Response<\/button>)/u.exec(html)?.[0] ?? 'missing';

describe('the client dashboard', () => {
  it('shows the business, its template and active-since date, the badge, the five figures and the recent conversations', () => {
    const html = render(view());
    const text = textOf(html);
    expect(text).toContain('Harbour Bikes');
    expect(text).toContain('WhatsApp Business AI');
    expect(text).toMatch(/Active since \w+/u);
    expect(text).toContain('Active Subscription');
    expect(text).toContain('Pause Automation');
    for (const title of ['Total Messages', 'Response Rate', 'Avg Response Time', 'Leads Generated', 'Conversion Rate']) expect(text).toContain(title);
    expect(text).toContain('2 of 3 conversations answered');
    expect(text).toContain('1 of 4 leads marked converted');
    expect(text).toContain('Last 30 days');
    expect(text).toContain('Ana Lima');
    expect(html).toContain(`href="/conversations?conversation=${CONVERSATION_ID}"`);
    expect(text).toContain('View Chat');
    // Without the billing feature's tab there is no Billing tab; with it there is.
    expect(text).not.toContain('Billing');
    expect(textOf(render(view(), { billing: true }))).toContain('Billing');
  });

  it('says Paused and offers Resume while paused; Past Due when billing says so; never a plan it does not have', () => {
    const paused = textOf(
      render(view({ subscriptionStatus: 'paused', client: { ...view().client, automationPausedAt: '2026-03-30T08:00:00.000Z', automationPausedBy: 'Olivia Owner' } })),
    );
    expect(paused).toContain('Paused');
    expect(paused).toContain('Resume Automation');
    expect(paused).toContain('Automation paused by Olivia Owner');
    expect(paused).not.toContain('Pause Automation');
    expect(textOf(render(view({ subscriptionStatus: 'past_due' })))).toContain('Past Due');
    const noPlan = textOf(render(view({ plan: null, subscriptionStatus: null })));
    expect(noPlan).toContain('No template chosen yet');
    expect(noPlan).toContain('Client since');
    expect(noPlan).toContain('No subscription');
    expect(noPlan).not.toContain('Active Subscription');
  });

  it('writes figures with nothing to measure as a dash, not as zero', () => {
    const text = textOf(
      render(
        view({
          metrics: { totalMessages: 0, conversations: 0, answeredConversations: 0, responseRate: null, avgResponseSeconds: null, leadsGenerated: 0, convertedLeads: 0, conversionRate: null },
          recentConversations: [],
        }),
      ),
    );
    expect(text).toContain('No conversations started');
    expect(text).toContain('No leads yet');
    expect(text).toContain('—');
    expect(text).toContain('No conversations yet');
  });

  it('asks staff to choose a client, and a client user without a business says so', () => {
    const manager: CurrentUser = { ...user, role: 'manager', clientId: null };
    expect(textOf(render(view(), { who: manager }))).toContain('Choose a client');
    expect(textOf(render(view(), { who: manager, path: `/client-dashboard?client=${CLIENT_ID}` }))).toContain('Harbour Bikes');
    expect(textOf(render(view(), { who: { ...user, clientId: null } }))).toContain('Your account is not linked to a business yet');
  });

  it('Going live: hidden once live; before that the steps from real data, with who does each', () => {
    expect(textOf(render(view()))).not.toContain('Get your AI agent live');

    const fresh = view({
      goLive: { channels: 0, channelKinds: [], knowledgeLive: false, liveEntries: 0, training: false },
      settings: { ...view().settings, autoResponse: false },
    });
    const client = render(fresh);
    const text = textOf(client);
    expect(text).toContain('Get your AI agent live');
    expect(text).toContain('0 of 3 steps done');
    expect(text).toContain('To do: Connect a channel');
    expect(text).toContain('Your Parley team connects your WhatsApp');
    expect(text).toContain('Your Parley team loads your questions and answers');
    // A client user gets no link to staff pages; auto-response waits for the answers.
    expect(client).not.toContain('href="/clients');
    expect(client).not.toContain('href="/agents');
    expect(turnOn(client)).toContain(' disabled=""');

    const admin: CurrentUser = { ...user, role: 'admin', clientId: null };
    const staff = render(fresh, { who: admin, path: `/client-dashboard?client=${CLIENT_ID}` });
    expect(staff).toContain(`href="/clients?client=${CLIENT_ID}"`);
    expect(staff).toContain(`href="/agents?client=${CLIENT_ID}&amp;section=knowledge"`);
    // A manager keeps the knowledge base but does not connect channels.
    const manager = render(fresh, { who: { ...admin, role: 'manager' }, path: `/client-dashboard?client=${CLIENT_ID}` });
    expect(manager).not.toContain('href="/clients');
    expect(manager).toContain(`href="/agents?client=${CLIENT_ID}&amp;section=knowledge"`);

    const ready = render(view({ goLive: { channels: 2, channelKinds: ['whatsapp', 'webchat'], knowledgeLive: true, liveEntries: 1, training: false }, settings: { ...view().settings, autoResponse: false } }));
    const readyText = textOf(ready);
    expect(readyText).toContain('2 of 3 steps done');
    expect(readyText).toContain('Done: Connect a channel');
    expect(readyText).toContain('2 channels connected: WhatsApp, Website chat.');
    expect(readyText).toContain('1 answer live.');
    expect(turnOn(ready)).toMatch(/^<button/u);
    expect(turnOn(ready)).not.toContain(' disabled=""');
  });
});
