import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MessageView } from '@common/api/conversations';
import { DeliveryStatus } from './message-thread';

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
