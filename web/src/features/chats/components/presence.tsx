import type { z } from 'zod';
import type { presence } from '@common/api/chats';
import { cn } from '@/lib/cn';

type Presence = z.infer<typeof presence>;

const DOT: Record<Presence, string> = { online: 'bg-emerald-500', away: 'bg-amber-400', offline: 'bg-slate-500' };
const LABEL: Record<Presence, string> = { online: 'Online', away: 'Away', offline: 'Offline' };

export function PresenceDot({ status, className }: { status: Presence; className?: string }) {
  return <span role="img" aria-label={LABEL[status]} title={LABEL[status]} className={cn('inline-block size-2.5 rounded-full ring-2 ring-card', DOT[status], className)} />;
}

export function PresenceLabel({ status }: { status: Presence }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="presence">
      <span aria-hidden className={cn('inline-block size-2 rounded-full', DOT[status])} />
      {LABEL[status]}
    </span>
  );
}
