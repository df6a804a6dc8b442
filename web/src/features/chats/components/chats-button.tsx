import { LifeBuoy, MessagesSquare, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { useLiveChats } from '@/hooks/use-live-messaging';
import { cn } from '@/lib/cn';
import { useChats } from '../api/find-chats';
import { ChatConversation } from './chat-conversation';
import { ChatThreadList } from './chat-thread-list';
import { NewChatDialog } from './new-chat-dialog';

function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.65rem] leading-none font-semibold text-destructive-foreground tabular-nums">
      {count > 99 ? '99+' : count}
    </span>
  );
}

function SupportChatPanel({ userId }: { userId: string }) {
  const chats = useChats({ tab: 'all' });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const threads = chats.data?.threads ?? [];
  const selected = threads.find((t) => t.id === selectedId) ?? (threads.length === 1 ? threads[0] : undefined);

  if (chats.isPending) return <Skeleton className="m-4 h-24" />;
  if (threads.length === 0) {
    return (
      <div className="grid gap-3 p-4 text-sm text-muted-foreground">
        <p>Questions about your account, channels or automation? Write to Parley&apos;s team here; the answer appears in this panel.</p>
        <NewChatDialog className="w-fit" onCreated={(thread) => setSelectedId(thread.id)} />
      </div>
    );
  }
  if (!selected) {
    return (
      <div className="grid min-h-0 gap-3 overflow-y-auto p-3">
        <NewChatDialog className="w-fit" onCreated={(thread) => setSelectedId(thread.id)} />
        <ChatThreadList threads={threads} selectedId={null} onSelect={setSelectedId} />
      </div>
    );
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {threads.length > 1 ? (
        <Button variant="ghost" size="sm" className="m-2 mb-0 w-fit" onClick={() => setSelectedId(null)}>
          All chats
        </Button>
      ) : null}
      <ChatConversation key={selected.id} thread={selected} userId={userId} compact />
    </div>
  );
}

/**
 * The header's way into internal chats. Admins go to Chat Management; everyone else (client users,
 * managers) opens a support panel to chat with Parley's admins from any page (docs/DECISIONS.md).
 */
export function ChatsButton({ user }: { user: CurrentUser }) {
  useLiveChats();
  const chats = useChats({ tab: 'all' });
  const unread = chats.data?.unread ?? 0;
  const [open, setOpen] = useState(false);
  const label = unread > 0 ? `(${unread} unread)` : '';
  const buttonClass =
    'relative inline-flex size-9 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none';

  if (user.role === 'admin') {
    return (
      <Link to="/admin/conversations" aria-label={`Chat Management ${label}`.trim()} className={buttonClass}>
        <MessagesSquare aria-hidden className="size-5" />
        <UnreadBadge count={unread} />
      </Link>
    );
  }
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <button type="button" aria-label={`Support chat ${label}`.trim()} className={buttonClass} onClick={() => setOpen(true)}>
        <LifeBuoy aria-hidden className="size-5" />
        <UnreadBadge count={unread} />
      </button>
      <SheetContent side="right" className={cn('w-full bg-background sm:max-w-md')} aria-describedby="support-chat-description">
        <div className="flex items-center gap-2 border-b p-4">
          <div className="min-w-0 flex-1">
            <SheetTitle className="font-semibold">Support chat</SheetTitle>
            <SheetDescription id="support-chat-description" className="text-xs text-muted-foreground">
              Chat with Parley&apos;s team
            </SheetDescription>
          </div>
          <Button variant="ghost" size="icon" aria-label="Close" onClick={() => setOpen(false)}>
            <X aria-hidden />
          </Button>
        </div>
        {open ? <SupportChatPanel userId={user.id} /> : null}
      </SheetContent>
    </Sheet>
  );
}
