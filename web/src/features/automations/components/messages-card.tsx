import { useEffect, useState } from 'react';
import type { AutomationMessageView } from '@common/api/automations';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { hasMetadata, MESSAGE_TONE_CLASS, messageTone, stepName } from '../lib/automations';

export const NO_MESSAGES = 'No messages yet. Messages will appear here when the automation runs.';

export function MessageTypeBadge({ type }: { type: string }) {
  const tone = messageTone(type);
  return (
    <span
      data-slot="badge"
      data-tone={tone}
      className={cn('inline-flex max-w-40 shrink-0 items-center truncate rounded-md border px-2 py-0.5 text-xs font-medium', MESSAGE_TONE_CLASS[tone])}
    >
      {type}
    </span>
  );
}

export function MessageItem({ message, now }: { message: AutomationMessageView; now?: Date }) {
  return (
    <li data-testid="automation-message" className="grid gap-1.5 rounded-lg border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium break-words">{stepName(message)}</span>
        <MessageTypeBadge type={message.message_type} />
        <time dateTime={message.timestamp} title={formatDateTime(message.timestamp)} className="ml-auto text-xs text-muted-foreground">
          {formatRelative(message.timestamp, now)}
        </time>
      </div>
      <p className="text-sm break-words whitespace-pre-wrap">{message.content}</p>
      {hasMetadata(message) ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-muted-foreground">View metadata</summary>
          <pre className="mt-2 max-h-60 overflow-auto rounded-md bg-muted p-2 whitespace-pre-wrap break-all">{JSON.stringify(message.metadata, null, 2)}</pre>
        </details>
      ) : null}
    </li>
  );
}

/** 'Real-time Messages': newest on top, in a 400 px scroll area (spec §9). */
export function MessagesCard({ messages, loading }: { messages: readonly AutomationMessageView[]; loading?: boolean }) {
  // Relative times ("2 minutes ago") move on while the card is open.
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Card>
      <CardHeader className="px-4 sm:px-6">
        <CardTitle>Real-time Messages</CardTitle>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        <div className="h-[400px] overflow-y-auto overscroll-contain pr-1" tabIndex={0} aria-label="Real-time messages">
          {loading ? (
            <p className="py-6 text-center text-sm text-muted-foreground">Loading messages…</p>
          ) : messages.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{NO_MESSAGES}</p>
          ) : (
            <ul aria-live="polite" aria-label="Messages" className="grid gap-2">
              {messages.map((message) => (
                <MessageItem key={message.id} message={message} now={now} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
