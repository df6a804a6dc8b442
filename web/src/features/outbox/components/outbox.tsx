import { Inbox, Mail } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { OutboxEmailSummary } from '@common/api/admin';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useOutbox } from '../api/get-outbox';
import { useOutboxEmail } from '../api/get-outbox-email';
import { linkify } from '../lib/linkify';

const STATUS_VARIANT: Record<OutboxEmailSummary['status'], 'success' | 'secondary' | 'warning' | 'destructive'> = {
  sent: 'success',
  stored: 'secondary',
  queued: 'warning',
  failed: 'destructive',
};

function LinkifiedText({ text }: { text: string }) {
  return (
    <pre className="font-sans text-sm break-words whitespace-pre-wrap">
      {linkify(text).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} rel="noopener noreferrer" className="text-primary underline underline-offset-2">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </pre>
  );
}

function EmailReader({ id }: { id: string }) {
  const email = useOutboxEmail(id);
  if (email.isPending) return <Skeleton className="h-64" />;
  if (email.isError) {
    return <p className="text-sm text-muted-foreground">{errorMessage(email.error, 'This e-mail could not be loaded.')}</p>;
  }
  const e = email.data;
  return (
    <article aria-label="E-mail" className="grid gap-4">
      <header className="grid gap-1">
        <h2 className="text-lg font-semibold">{e.subject}</h2>
        <p className="text-sm text-muted-foreground">
          To <span className="text-foreground">{e.to}</span> · {formatDateTime(e.createdAt)}
        </p>
        <div className="flex flex-wrap gap-2">
          <Badge variant="outline">{e.kind}</Badge>
          <Badge variant={STATUS_VARIANT[e.status]}>{e.status}</Badge>
          {e.transport ? <Badge variant="outline">via {e.transport}</Badge> : null}
        </div>
        {e.lastError ? <p className="text-sm text-destructive">Last error: {e.lastError}</p> : null}
      </header>
      <div className="rounded-lg border bg-background p-4">
        <LinkifiedText text={e.textBody} />
      </div>
    </article>
  );
}

export function Outbox() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('email');
  const emails = useOutbox();

  const select = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('email', id);
    setParams(next);
  };

  if (emails.isPending) {
    return (
      <div className="grid gap-2">
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
    );
  }
  if (emails.isError) {
    return (
      <EmptyState icon={Mail} title="The outbox could not be loaded">
        <p>{errorMessage(emails.error, 'Please try again.')}</p>
        <Button variant="outline" className="mt-3" onClick={() => void emails.refetch()}>
          Try Again
        </Button>
      </EmptyState>
    );
  }
  if (emails.data.length === 0) {
    return (
      <EmptyState icon={Inbox} title="No e-mails yet">
        <p>Verification, password reset and other e-mails Parley sends appear here.</p>
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Card className="gap-3 py-4">
        <CardHeader className="flex flex-row items-center justify-between px-4">
          <div className="grid gap-1">
            <CardTitle>E-mails</CardTitle>
            <CardDescription>{emails.data.length} in the outbox</CardDescription>
          </div>
          <Button variant="outline" size="sm" onClick={() => void emails.refetch()} disabled={emails.isFetching}>
            Refresh
          </Button>
        </CardHeader>
        <CardContent className="px-2">
          <ul aria-label="E-mails" className="grid gap-1">
            {emails.data.map((email) => (
              <li key={email.id}>
                <button
                  type="button"
                  onClick={() => select(email.id)}
                  aria-current={selected === email.id ? 'true' : undefined}
                  className={cn(
                    'grid w-full gap-0.5 rounded-md p-2 text-left transition-colors hover:bg-accent',
                    selected === email.id && 'bg-accent',
                  )}
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate text-sm font-medium">{email.subject}</span>
                    <Badge variant={STATUS_VARIANT[email.status]}>{email.status}</Badge>
                  </span>
                  <span className="truncate text-xs text-muted-foreground">
                    {email.to} · {email.kind} · {formatDateTime(email.createdAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card className="py-4">
        <CardContent className="px-4">
          {selected ? (
            <EmailReader id={selected} />
          ) : (
            <p className="py-10 text-center text-sm text-muted-foreground">Select an e-mail to read it.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
