import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MessageView } from '@common/api/conversations';
import { DeliveryStatus, SurveyNote } from './message-thread';

const reply = (over: Partial<MessageView>): MessageView =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    conversationId: '00000000-0000-4000-8000-000000000002',
    direction: 'outbound',
    senderType: 'ai',
    status: 'sent',
    errorCode: null,
    errorMessage: null,
    ...over,
  }) as MessageView;

const render = (message: MessageView) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <DeliveryStatus message={message} />
    </QueryClientProvider>,
  );

describe('a reply’s delivery status in the thread', () => {
  it('shows a send interrupted by a crash as not confirmed, with its reason and one-click Resend', () => {
    const html = render(reply({ status: 'unknown', errorCode: 'outcome_unknown', errorMessage: 'Parley was interrupted while sending this message' }));
    expect(html).toContain('Not confirmed: Parley was interrupted while sending this message');
    expect(html).toMatch(/<button[^>]*>.*Resend<\/button>/su);
  });

  it('keeps Retry for a failed reply and no button for a sent one', () => {
    expect(render(reply({ status: 'failed', errorMessage: 'Outside the window' }))).toMatch(/Failed: Outside the window.*Retry<\/button>/su);
    const sent = render(reply({ status: 'sent' }));
    expect(sent).toContain('Sent');
    expect(sent).not.toContain('<button');
  });
});

describe('a satisfaction survey in the thread', () => {
  const survey = (over: Partial<NonNullable<MessageView['survey']>>): NonNullable<MessageView['survey']> => ({
    id: '00000000-0000-4000-8000-000000000009',
    status: 'pending',
    rating: null,
    comment: null,
    answeredAt: null,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    ...over,
  });

  it('shows the rating and comment once answered', () => {
    const html = renderToStaticMarkup(<SurveyNote survey={survey({ status: 'answered', rating: 4, comment: 'Quick', answeredAt: new Date().toISOString() })} />);
    expect(html).toContain('Rated 4/5 · Good');
    expect(html).toContain('“Quick”');
  });

  it('says a pending survey waits, and one past its time expired', () => {
    expect(renderToStaticMarkup(<SurveyNote survey={survey({})} />)).toContain('waiting for the customer’s rating');
    expect(renderToStaticMarkup(<SurveyNote survey={survey({ expiresAt: new Date(Date.now() - 1000).toISOString() })} />)).toContain('expired without a rating');
    expect(renderToStaticMarkup(<SurveyNote survey={survey({ status: 'expired' })} />)).toContain('expired without a rating');
  });
});
