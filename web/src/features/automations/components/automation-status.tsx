import { AlertCircle, CheckCircle2, Circle, Clock, Loader2, PauseCircle, XCircle, type LucideIcon } from 'lucide-react';
import type { AutomationStatus, ExecutionStatus } from '@common/api/automations';
import { cn } from '@/lib/cn';
import { EXECUTION_LABEL, EXECUTION_TONE, STATUS_LABEL, STATUS_TONE } from '../lib/automations';

const STATUS_ICON: Readonly<Record<AutomationStatus, LucideIcon>> = {
  active: CheckCircle2,
  paused: PauseCircle,
  inactive: Circle,
  error: AlertCircle,
};

export function AutomationStatusIcon({ status, className }: { status: AutomationStatus; className?: string }) {
  const Icon = STATUS_ICON[status];
  return <Icon aria-hidden data-status={status} className={cn('size-4 shrink-0', STATUS_TONE[status].icon, className)} />;
}

export function AutomationStatusBadge({ status }: { status: AutomationStatus }) {
  return (
    <span
      data-slot="badge"
      data-status={status}
      className={cn('inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap', STATUS_TONE[status].badge)}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

const EXECUTION_ICON: Readonly<Record<ExecutionStatus, LucideIcon>> = {
  success: CheckCircle2,
  error: XCircle,
  running: Loader2,
  waiting: Clock,
  canceled: Circle,
};

export function ExecutionStatusIcon({ status }: { status: ExecutionStatus }) {
  const Icon = EXECUTION_ICON[status];
  return <Icon aria-hidden className={cn('size-4 shrink-0', EXECUTION_TONE[status], status === 'running' && 'motion-safe:animate-spin')} />;
}

export function ExecutionStatusLabel({ status }: { status: ExecutionStatus }) {
  return (
    <span data-status={status} className={cn('text-sm font-medium', EXECUTION_TONE[status])}>
      {EXECUTION_LABEL[status]}
    </span>
  );
}
