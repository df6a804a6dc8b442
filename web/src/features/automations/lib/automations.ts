/**
 * The automations screen's rules (spec part 2 §4, §8, §9): the pause/resume toggle, the colours of
 * automation, execution and message statuses, durations, and how live events change the lists.
 */
import {
  type AutomationMessageView,
  type AutomationStatus,
  type ExecutionStatus,
  type ExecutionView,
} from '@common/api/automations';

/** Executions shown (spec §9). */
export const EXECUTIONS_SHOWN = 50;
/** Messages loaded (spec §9). */
export const MESSAGES_SHOWN = 100;

/** The toggle: active → paused, anything else → active (spec §4). */
export function nextStatus(status: AutomationStatus): 'active' | 'paused' {
  return status === 'active' ? 'paused' : 'active';
}

/** 'Automation paused', 'Automation active' (spec §8 'Automation {status}'). */
export function statusToast(status: AutomationStatus): string {
  return `Automation ${status}`;
}

export const STATUS_LABEL: Readonly<Record<AutomationStatus, string>> = {
  active: 'Active',
  paused: 'Paused',
  inactive: 'Inactive',
  error: 'Error',
};

/** Badge and icon colours: active green, paused yellow, inactive gray, error red. */
export const STATUS_TONE: Readonly<Record<AutomationStatus, { badge: string; icon: string }>> = {
  active: { badge: 'border-success/30 bg-success/15 text-success', icon: 'text-success' },
  paused: { badge: 'border-warning/30 bg-warning/15 text-warning', icon: 'text-warning' },
  inactive: { badge: 'border-transparent bg-muted text-muted-foreground', icon: 'text-muted-foreground' },
  error: { badge: 'border-destructive/30 bg-destructive/15 text-destructive', icon: 'text-destructive' },
};

export const EXECUTION_LABEL: Readonly<Record<ExecutionStatus, string>> = {
  success: 'Success',
  error: 'Error',
  running: 'Running',
  waiting: 'Waiting',
  canceled: 'Canceled',
};

/** Execution colours: success green, error red, running blue, waiting yellow, canceled grey. */
export const EXECUTION_TONE: Readonly<Record<ExecutionStatus, string>> = {
  success: 'text-success',
  error: 'text-destructive',
  running: 'text-blue-600 dark:text-blue-400',
  waiting: 'text-warning',
  canceled: 'text-muted-foreground',
};

export type MessageTone = 'success' | 'warning' | 'error' | 'debug' | 'info';

/** success green, warning yellow, error red, debug purple; anything else is info blue. */
export function messageTone(type: string): MessageTone {
  const t = type.trim().toLowerCase();
  return t === 'success' || t === 'warning' || t === 'error' || t === 'debug' ? t : 'info';
}

export const MESSAGE_TONE_CLASS: Readonly<Record<MessageTone, string>> = {
  success: 'border-success/30 bg-success/15 text-success',
  warning: 'border-warning/30 bg-warning/15 text-warning',
  error: 'border-destructive/30 bg-destructive/15 text-destructive',
  debug: 'border-purple-500/30 bg-purple-500/15 text-purple-700 dark:text-purple-300',
  info: 'border-blue-500/30 bg-blue-500/15 text-blue-700 dark:text-blue-300',
};

/** "1h 2m 3s", "4m 5s", "6s", "<1s"; 'N/A' when the execution has not finished. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return 'N/A';
  if (ms < 1000) return '<1s';
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

export const UNKNOWN_STEP = 'Unknown Step';

export function stepName(message: Pick<AutomationMessageView, 'step_name'>): string {
  const name = message.step_name?.trim();
  return name ? name : UNKNOWN_STEP;
}

export function hasMetadata(message: Pick<AutomationMessageView, 'metadata'>): boolean {
  return Object.keys(message.metadata).length > 0;
}

/** A live message goes on top (spec §4); a repeated event changes nothing. */
export function prependMessage(messages: readonly AutomationMessageView[] | undefined, message: AutomationMessageView): AutomationMessageView[] {
  const list = messages ?? [];
  if (list.some((m) => m.id === message.id)) return [...list];
  return [message, ...list].slice(0, MESSAGES_SHOWN);
}

/** A new execution goes on top, a known one is replaced; newest first by started_at, 50 at most. */
export function upsertExecution(executions: readonly ExecutionView[] | undefined, execution: ExecutionView): ExecutionView[] {
  const others = (executions ?? []).filter((e) => e.id !== execution.id);
  return [execution, ...others].sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at)).slice(0, EXECUTIONS_SHOWN);
}

/** A trigger that failed: the run this tab started ended in error before the workflow ever answered with its id. */
export function isTriggerFailure(execution: ExecutionView): boolean {
  return execution.status === 'error' && execution.execution_id === null;
}
