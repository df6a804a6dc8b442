import { Plus, Workflow } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { AutomationView, ExecutionView } from '@common/api/automations';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAutomations } from '../api/find-automations';
import { useRunAutomation } from '../api/run-automation';
import { useSetAutomationStatus } from '../api/set-automation-status';
import { useLiveAutomation } from '../api/use-live-automation';
import { isTriggerFailure, nextStatus, statusToast } from '../lib/automations';
import { AutomationDetails } from './automation-details';
import { AutomationFormDialog } from './automation-form-dialog';
import { AutomationRow } from './automation-list';

export const NO_AUTOMATIONS_ADMIN = 'No automations found. Create your first automation to get started.';
export const NO_AUTOMATIONS_OTHERS = 'No automations found. Automations appear here once an admin sets them up.';
export const SELECT_AUTOMATION = 'Select an automation to view details and execution history.';

/** The run's refusal as the spec's toast: 'Workflow URL not configured', else 'Failed to trigger automation'. */
export function runErrorText(error: unknown): string {
  if (isApiError(error) && error.message === 'Workflow URL not configured') return error.message;
  if (isApiError(error) && error.isClientError) return errorMessage(error, 'Failed to trigger automation');
  return 'Failed to trigger automation';
}

type Notify = Pick<typeof toast, 'success' | 'error'>;
type Mutate<TInput, TResult> = (input: TInput, callbacks: { onSuccess: (result: TResult) => void; onError: (error: Error) => void }) => void;

/** The pause/resume toggle: active → paused, anything else → active; then 'Automation {status}'. */
export function toggleAutomation(
  automation: AutomationView,
  mutate: Mutate<{ id: string; status: 'active' | 'paused' }, AutomationView>,
  notify: Notify = toast,
): void {
  mutate(
    { id: automation.id, status: nextStatus(automation.status) },
    {
      onSuccess: (saved) => notify.success(statusToast(saved.status)),
      onError: (error) => {
        console.error('Failed to update automation status', error);
        notify.error('Error', { description: 'Failed to update automation status' });
      },
    },
  );
}

/** Run: 'Automation triggered successfully' once the run is stored, the spec's error toasts otherwise. */
export function runAutomationNow(
  automation: AutomationView,
  mutate: Mutate<string, ExecutionView>,
  /** Answers true when the run already failed to trigger (then only that failure is told). */
  onStarted: (execution: ExecutionView) => boolean,
  notify: Notify = toast,
): void {
  mutate(automation.id, {
    onSuccess: (execution) => {
      if (!onStarted(execution)) notify.success('Automation triggered successfully');
    },
    onError: (error) => notify.error('Error', { description: runErrorText(error) }),
  });
}

/**
 * /automations and /admin/automations (spec part 2 "Automations screen"): every role may run and
 * pause/resume what it sees (client users: their own business's); only admins create and configure.
 */
export function AutomationsScreen({ role }: { role: Role }) {
  const isAdmin = role === 'admin';
  const automations = useAutomations();
  const setStatus = useSetAutomationStatus();
  const run = useRunAutomation();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ open: boolean; automation?: AutomationView | undefined }>({ open: false });
  const startedHere = useRef(new Set<string>());
  const detailsRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (automations.isError) toast.error('Error', { description: 'Failed to fetch automations' });
  }, [automations.isError]);

  const list = automations.data ?? [];
  const selected = list.find((a) => a.id === selectedId) ?? null;

  /** Executions that ended before this tab knew it had started them (a fast trigger failure). */
  const endedEarly = useRef(new Map<string, ExecutionView>());
  /** Tells a failed trigger; answers whether it failed. */
  const settleRun = (execution: ExecutionView): boolean => {
    startedHere.current.delete(execution.id);
    // The workflow URL refused or never answered the trigger: the server's job recorded why.
    if (!isTriggerFailure(execution)) return false;
    toast.error('Error', { description: execution.error_message ? `Failed to trigger automation: ${execution.error_message}` : 'Failed to trigger automation' });
    return true;
  };

  useLiveAutomation(selected?.id ?? null, (execution: ExecutionView) => {
    if (execution.status === 'running' || execution.status === 'waiting') return;
    if (startedHere.current.has(execution.id)) settleRun(execution);
    else if (endedEarly.current.size < 50) endedEarly.current.set(execution.id, execution);
  });

  const select = (id: string) => {
    setSelectedId(id);
    // On a phone the details stack under the list: bring them into view.
    if (typeof window !== 'undefined' && window.matchMedia?.('(max-width: 1023px)').matches) {
      requestAnimationFrame(() => detailsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    }
  };

  const toggle = (automation: AutomationView) => toggleAutomation(automation, setStatus.mutate);

  const start = (automation: AutomationView) => {
    // Selected first, so its live topic is subscribed before the run can report anything.
    setSelectedId(automation.id);
    runAutomationNow(automation, run.mutate, (execution) => {
      const ended = endedEarly.current.get(execution.id);
      endedEarly.current.clear();
      if (ended) return settleRun(ended);
      startedHere.current.add(execution.id);
      return false;
    });
  };

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {isAdmin ? 'Create, run and monitor automations for every client.' : 'Run your automations and watch their steps as they happen.'}
        </p>
        {isAdmin ? (
          <Button onClick={() => setDialog({ open: true })}>
            <Plus aria-hidden />
            Add Automation
          </Button>
        ) : null}
      </div>

      {automations.isPending ? (
        <div className="grid gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <Skeleton className="h-32" />
          <Skeleton className="h-64" />
        </div>
      ) : automations.isError ? (
        <LoadError message="Failed to fetch automations" onRetry={() => void automations.refetch()} />
      ) : list.length === 0 ? (
        <div className="grid justify-items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-muted">
            <Workflow aria-hidden className="size-6 text-muted-foreground" />
          </span>
          <p className="max-w-prose text-sm text-muted-foreground">{isAdmin ? NO_AUTOMATIONS_ADMIN : NO_AUTOMATIONS_OTHERS}</p>
        </div>
      ) : (
        <div className="grid min-w-0 items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <ul aria-label="Automations" className="grid min-w-0 gap-3">
            {list.map((automation) => (
              <AutomationRow
                key={automation.id}
                automation={automation}
                selected={automation.id === selectedId}
                onSelect={() => select(automation.id)}
                onRun={() => start(automation)}
                onToggle={() => toggle(automation)}
                running={run.isPending && run.variables === automation.id}
                toggling={setStatus.isPending && setStatus.variables?.id === automation.id}
              />
            ))}
          </ul>
          <div ref={detailsRef} className="min-w-0 scroll-mt-4">
            {selected ? (
              <AutomationDetails
                key={selected.id}
                automation={selected}
                admin={isAdmin ? { onConfigure: () => setDialog({ open: true, automation: selected }), onDeleted: () => setSelectedId(null) } : undefined}
              />
            ) : (
              <p className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground">{SELECT_AUTOMATION}</p>
            )}
          </div>
        </div>
      )}

      {isAdmin ? (
        <AutomationFormDialog
          key={dialog.automation?.id ?? 'new'}
          open={dialog.open}
          automation={dialog.automation}
          onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}
          onSaved={(saved) => setSelectedId(saved.id)}
        />
      ) : null}
    </div>
  );
}
