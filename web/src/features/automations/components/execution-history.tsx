import type { ExecutionView } from '@common/api/automations';
import { formatDateTime } from '@/lib/format';
import { formatDuration } from '../lib/automations';
import { ExecutionStatusIcon, ExecutionStatusLabel } from './automation-status';

export const NO_EXECUTIONS = 'No executions found. Run the automation to see execution history.';

/** Newest first (the server's order), 50 at most. */
export function ExecutionHistoryList({ executions }: { executions: readonly ExecutionView[] }) {
  if (executions.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">{NO_EXECUTIONS}</p>;
  return (
    <ul aria-label="Execution history" className="grid gap-2">
      {executions.map((execution) => (
        <li key={execution.id} data-testid="execution" data-execution-status={execution.status} className="grid gap-1 rounded-lg border p-3">
          <div className="flex flex-wrap items-center gap-2">
            <ExecutionStatusIcon status={execution.status} />
            <ExecutionStatusLabel status={execution.status} />
            <span className="ml-auto text-xs text-muted-foreground">
              Duration: <span className="tabular-nums">{formatDuration(execution.duration_ms)}</span>
            </span>
          </div>
          <p className="text-xs text-muted-foreground">
            Started <time dateTime={execution.started_at}>{formatDateTime(execution.started_at)}</time>
            {execution.trigger_event_type ? (
              <>
                {' '}
                by <span className="font-mono break-all">{execution.trigger_event_type}</span>
              </>
            ) : null}
          </p>
          {execution.execution_id ? (
            <p className="text-xs break-all text-muted-foreground">
              Execution ID: <span className="font-mono">{execution.execution_id}</span>
            </p>
          ) : null}
          {execution.error_message ? <p className="text-sm break-words text-destructive">{execution.error_message}</p> : null}
        </li>
      ))}
    </ul>
  );
}
