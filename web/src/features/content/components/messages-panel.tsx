import { Inbox, Mail, Send, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { contactReplyInput, type ContactMessage, type ContactMessageDetail } from '@common/api/contact';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useDeleteContactMessage } from '../api/delete-contact-message';
import { useContactMessages } from '../api/find-contact-messages';
import { useContactMessage } from '../api/get-contact-message';
import { useReplyToContactMessage } from '../api/reply-to-contact-message';
import { useLiveContactMessages } from '../api/use-live-contact-messages';
import { CONTACT_TOASTS } from '../lib/feedback';
import { mailtoReply, senderName } from '../lib/messages';

/** One message in the list: unread marker, sender, company, when, the start of the message. */
export function MessageListItem({ message, selected, onOpen, now }: { message: ContactMessage; selected: boolean; onOpen: () => void; now?: Date }) {
  const name = senderName(message);
  return (
    <li className="min-w-0" data-testid="contact-message" data-unread={message.read ? undefined : 'true'}>
      <button
        type="button"
        onClick={onOpen}
        aria-current={selected ? 'true' : undefined}
        className={cn(
          'grid w-full min-w-0 gap-1 rounded-lg border p-3 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
          selected && 'border-primary bg-accent',
        )}
      >
        <span className="flex min-w-0 items-center gap-2">
          {message.read ? null : (
            <span className="size-2 shrink-0 rounded-full bg-primary" aria-hidden />
          )}
          <span className={cn('min-w-0 flex-1 truncate text-sm', message.read ? 'font-medium' : 'font-semibold')}>{name}</span>
          {message.read ? null : <span className="sr-only">(unread)</span>}
          <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)} className="shrink-0 text-xs text-muted-foreground">
            {formatRelative(message.createdAt, now)}
          </time>
        </span>
        <span className="truncate text-xs text-muted-foreground">{message.company ? `${message.company} · ${message.email}` : message.email}</span>
        <span className="line-clamp-2 text-sm break-words text-muted-foreground">{message.message}</span>
        {message.replyCount > 0 ? (
          <span>
            <Badge variant="outline">{message.replyCount === 1 ? '1 reply' : `${message.replyCount} replies`}</Badge>
          </span>
        ) : null}
      </button>
    </li>
  );
}

function ReplyForm({ message }: { message: ContactMessageDetail }) {
  const reply = useReplyToContactMessage();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = `reply-${message.id}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = contactReplyInput.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    void reply.mutateAsync({ id: message.id, body: parsed.data.body }).then(
      () => {
        setBody('');
        toast.success(CONTACT_TOASTS.replied, { description: `To ${message.email}` });
      },
      (failure: unknown) => {
        if (isApiError(failure) && failure.fields?.['body']) setError(failure.fields['body']);
        toast.error('Reply not sent', { description: errorMessage(failure, 'The reply could not be sent. Please try again.') });
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="grid min-w-0 gap-2">
      <FormField id={id} label="Reply" error={error} description={`Parley e-mails your reply to ${message.email} and keeps it with the message.`}>
        <Textarea {...fieldA11y(id, error, true)} rows={5} value={body} onChange={(e) => setBody(e.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={reply.isPending}>
          <Send aria-hidden />
          {reply.isPending ? 'Sending...' : 'Send Reply'}
        </Button>
        <a href={mailtoReply(message)} className={buttonVariants({ variant: 'outline' })}>
          <Mail aria-hidden />
          Reply by e-mail
        </a>
      </div>
    </form>
  );
}

/** The open message: who, when, the text, the replies sent, Reply and Delete. */
export function MessageDetail({ message, onDeleted }: { message: ContactMessageDetail; onDeleted: () => void }) {
  const remove = useDeleteContactMessage();
  const heading = useRef<HTMLHeadingElement>(null);
  // On a phone the message opens below the list: bring it into view and give it focus.
  useEffect(() => heading.current?.focus(), [message.id]);
  const name = senderName(message);
  return (
    <article aria-labelledby="contact-message-title" className="grid min-w-0 gap-4 rounded-xl border bg-card p-4">
      <header className="flex min-w-0 flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <h3 id="contact-message-title" ref={heading} tabIndex={-1} className="text-base font-semibold break-words outline-none">
            {name}
          </h3>
          <p className="text-sm break-all text-muted-foreground">
            <a href={`mailto:${message.email}`} className="hover:underline">
              {message.email}
            </a>
            {message.company ? ` · ${message.company}` : ''}
          </p>
          <p className="text-xs text-muted-foreground">Sent {formatDateTime(message.createdAt)}</p>
        </div>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button type="button" variant="ghost" size="sm" className="text-destructive hover:text-destructive" disabled={remove.isPending} aria-label={`Delete the message from ${name}`}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete Message</AlertDialogTitle>
              <AlertDialogDescription>Are you sure you want to delete the message from {name}? Its replies are deleted with it; e-mails already sent are not recalled.</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className={buttonVariants({ variant: 'destructive' })}
                onClick={() =>
                  // Promise callbacks: the refreshed list may unmount this message before mutate's callbacks would run.
                  void remove.mutateAsync(message.id).then(
                    () => {
                      onDeleted();
                      toast.success(CONTACT_TOASTS.deleted);
                    },
                    (error: unknown) => void toast.error('Message not deleted', { description: errorMessage(error, 'The message could not be deleted. Please try again.') }),
                  )
                }
              >
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </header>
      <p className="text-sm break-words whitespace-pre-wrap">{message.message}</p>
      {message.replies.length > 0 ? (
        <section aria-label="Replies" className="grid min-w-0 gap-2">
          <h4 className="text-sm font-semibold">Replies</h4>
          <ol className="grid min-w-0 gap-2">
            {message.replies.map((reply) => (
              <li key={reply.id} className="grid min-w-0 gap-1 rounded-lg border bg-muted/40 p-3" data-testid="contact-reply">
                <p className="text-xs text-muted-foreground">
                  {reply.sentBy?.name ?? 'Unknown user'}, {formatDateTime(reply.sentAt)}
                </p>
                <p className="text-sm break-words whitespace-pre-wrap">{reply.body}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <ReplyForm key={message.id} message={message} />
    </article>
  );
}

function OpenMessage({ id, onDeleted, onClose }: { id: string; onDeleted: () => void; onClose: () => void }) {
  const message = useContactMessage(id);
  if (message.isPending) return <Skeleton className="h-72" />;
  if (message.isError) {
    const gone = isApiError(message.error) && message.error.status === 404;
    return (
      <LoadError
        message={gone ? 'This message no longer exists.' : errorMessage(message.error, 'The message could not be loaded.')}
        onRetry={gone ? undefined : () => void message.refetch()}
      >
        {gone ? (
          <Button variant="outline" size="sm" onClick={onClose}>
            Close
          </Button>
        ) : null}
      </LoadError>
    );
  }
  return <MessageDetail message={message.data} onDeleted={onDeleted} />;
}

/**
 * The Messages editor (spec part 2 "Content management"): contact form messages, newest first, with
 * unread markers and count; opening one marks it read; Delete clears the selection; Reply e-mails the
 * sender from Parley, and a mail link remains. New messages arrive live.
 */
export function MessagesPanel() {
  useLiveContactMessages();
  const messages = useContactMessages();
  const [selected, setSelected] = useState<string | null>(null);
  const list = messages.data?.messages ?? [];
  const unread = messages.data?.unreadCount ?? 0;

  return (
    <section aria-labelledby="messages-title" className="min-w-0">
      <Card className="gap-4">
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="messages-title" className="text-lg leading-none font-semibold">
              Messages
            </h2>
            {messages.data ? (
              <Badge variant={unread > 0 ? 'default' : 'secondary'} data-testid="unread-count">
                {unread} unread
              </Badge>
            ) : null}
          </div>
          <CardDescription>Messages sent through the contact form, newest first. New ones appear here as they arrive.</CardDescription>
        </CardHeader>
        <CardContent className="@container min-w-0">
          {messages.isPending ? (
            <Skeleton className="h-64" />
          ) : messages.isError ? (
            <LoadError message={errorMessage(messages.error, 'The messages could not be loaded.')} onRetry={() => void messages.refetch()} />
          ) : list.length === 0 ? (
            <EmptyState icon={Inbox} title="No messages yet">
              Messages sent through the contact form appear here.
            </EmptyState>
          ) : (
            <div className="grid min-w-0 gap-4 @3xl:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] @3xl:items-start">
              <ul aria-label="Contact messages" className="grid max-h-[36rem] min-w-0 gap-2 overflow-y-auto">
                {list.map((message) => (
                  <MessageListItem key={message.id} message={message} selected={message.id === selected} onOpen={() => setSelected(message.id)} />
                ))}
              </ul>
              {selected === null ? (
                <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">Select a message to read it and reply.</p>
              ) : (
                <OpenMessage key={selected} id={selected} onDeleted={() => setSelected(null)} onClose={() => setSelected(null)} />
              )}
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
