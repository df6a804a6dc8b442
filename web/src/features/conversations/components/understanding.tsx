import { Frown, Mail, Meh, Phone, ShieldAlert, Smile, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ConversationView, Priority } from '@common/api/conversations';
import { KnowledgeSource } from '@/components/knowledge-source';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { escalationText, PRIORITY_NAME, priorityText, requestText, SENTIMENT_LABEL, type Sentiment, summaryText } from '../lib/understanding';

const SENTIMENT_ICON = { positive: Smile, neutral: Meh, negative: Frown } as const;
const SENTIMENT_CLASS: Record<Sentiment, string> = { positive: 'text-success', neutral: 'text-muted-foreground', negative: 'text-destructive' };
const PRIORITY_VARIANT = { high: 'destructive', medium: 'warning', low: 'secondary' } as const;

/** The customer's mood as a word with its face; nothing before it was measured. */
export function SentimentIndicator({ sentiment, compact = false }: { sentiment: Sentiment | null | undefined; compact?: boolean }) {
  if (!sentiment) return null;
  const Icon = SENTIMENT_ICON[sentiment];
  return (
    <span className={cn('inline-flex items-center gap-1', SENTIMENT_CLASS[sentiment])} data-testid="sentiment" title={`Sentiment: ${SENTIMENT_LABEL[sentiment]}`}>
      <Icon aria-hidden className="size-3.5 shrink-0" />
      {compact ? <span className="sr-only">Sentiment: </span> : null}
      <span className={compact ? 'sr-only' : undefined}>{SENTIMENT_LABEL[sentiment]}</span>
    </span>
  );
}

/** The priority and, after it, what raised it (may wrap on a narrow screen). */
export function PriorityReason({ priority, reason }: { priority: Priority; reason: string | null | undefined }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5" data-testid="priority-reason" aria-label={priorityText(priority, reason)}>
      <Badge variant={PRIORITY_VARIANT[priority]}>{PRIORITY_NAME[priority]}</Badge>
      {reason ? <span className="min-w-0 break-words text-muted-foreground">{reason}</span> : null}
    </span>
  );
}

const LEAD_SIGNAL_TEXT: Record<ConversationView['leadSignals'][number], string> = {
  email: 'shared an e-mail address',
  phone: 'shared a phone number',
  purchase_intent: 'asked about buying',
};

/** "Lead": the customer shared contact details or showed purchase intent (docs/events.md). */
export function LeadBadge() {
  return (
    <Badge variant="success" className="gap-1" data-testid="lead-badge" title="A lead: the customer shared contact details or showed purchase intent">
      <Sparkles aria-hidden className="size-3" />
      Lead
    </Badge>
  );
}

/** What made the conversation a lead, and the details captured, as links. */
function LeadDetails({ conversation }: { conversation: ConversationView }) {
  const why = conversation.leadSignals.map((signal) => LEAD_SIGNAL_TEXT[signal]);
  return (
    <span className="grid min-w-0 gap-1">
      <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5">
        <LeadBadge />
        {why.length > 0 ? <span className="text-muted-foreground">The customer {why.join(', ')}.</span> : null}
      </span>
      {conversation.leadEmail ? (
        <a className="inline-flex min-w-0 items-center gap-1.5 break-all text-primary underline-offset-4 hover:underline" href={`mailto:${conversation.leadEmail}`} data-testid="lead-email">
          <Mail aria-hidden className="size-3.5 shrink-0" />
          {conversation.leadEmail}
        </a>
      ) : null}
      {conversation.leadPhone ? (
        <a className="inline-flex min-w-0 items-center gap-1.5 break-all text-primary underline-offset-4 hover:underline" href={`tel:${conversation.leadPhone}`} data-testid="lead-phone">
          <Phone aria-hidden className="size-3.5 shrink-0" />
          {conversation.leadPhone}
        </a>
      ) : null}
    </span>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5" data-testid={testId}>
      <dt className="shrink-0 text-xs font-medium text-muted-foreground sm:w-28">{label}</dt>
      <dd className="min-w-0 flex-1 basis-48 text-sm break-words">{children}</dd>
    </div>
  );
}

/** The thread header's account of what the agent understood. */
export function ConversationUnderstanding({ conversation }: { conversation: ConversationView }) {
  const request = requestText(conversation);
  const summary = summaryText(conversation);
  const escalation = escalationText(conversation);
  const entry = conversation.matchedEntry ?? null;
  return (
    <section aria-label="What the agent understood" className="rounded-lg border bg-muted/30 p-3">
      <dl className="grid gap-1.5">
        <Row label="Customer wants" testId="understanding-request">
          {request ?? <span className="text-muted-foreground">Nothing recorded yet.</span>}
        </Row>
        {summary ? (
          <Row label="Summary" testId="understanding-summary">
            <span className="line-clamp-3 text-muted-foreground">{summary}</span>
          </Row>
        ) : null}
        <Row label="Sentiment" testId="understanding-sentiment">
          {conversation.sentiment ? <SentimentIndicator sentiment={conversation.sentiment} /> : <span className="text-muted-foreground">Not measured yet.</span>}
        </Row>
        <Row label="Priority" testId="understanding-priority">
          <PriorityReason priority={conversation.priority} reason={conversation.priorityReason} />
        </Row>
        {entry ? (
          <Row label="Answered from" testId="understanding-entry">
            <KnowledgeSource source={entry} overflow="wrap" />
          </Row>
        ) : null}
        {conversation.isLead ? (
          <Row label="Lead" testId="understanding-lead">
            <LeadDetails conversation={conversation} />
          </Row>
        ) : null}
        {escalation ? (
          <Row label="Why escalated" testId="understanding-escalation">
            <span className="inline-flex min-w-0 items-start gap-1.5">
              <ShieldAlert aria-hidden className="mt-0.5 size-3.5 shrink-0 text-warning" />
              <span className="min-w-0">{escalation}</span>
            </span>
          </Row>
        ) : null}
      </dl>
    </section>
  );
}

/** The list's short form: "High priority · Keyword “urgent”". */
export function PriorityReasonInline({ priority, reason }: { priority: Priority; reason: string | null | undefined }) {
  return (
    <>
      <span className={cn('font-medium', priority === 'high' ? 'text-destructive' : priority === 'medium' ? 'text-warning' : undefined)}>{PRIORITY_NAME[priority]}</span>
      {reason ? <span> · {reason}</span> : null}
    </>
  );
}
