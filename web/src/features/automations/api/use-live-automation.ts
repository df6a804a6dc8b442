import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { automationMessageView, executionView, type AutomationMessageView, type ExecutionView } from '@common/api/automations';
import { useRealtimeReconnect, useRealtimeTopic } from '@/hooks/use-realtime';
import type { RealtimeEvent } from '@/lib/realtime';
import { prependMessage, upsertExecution } from '../lib/automations';
import { automationKeys } from './keys';

/**
 * Applies one realtime event of topic `automation:<id>` to the cached history and messages: a new
 * step message goes on top, an execution is added or replaced. Returns the execution it changed.
 */
export function applyAutomationEvent(queryClient: QueryClient, event: RealtimeEvent): ExecutionView | null {
  if (event.event === 'automation.message.created') {
    const parsed = automationMessageView.safeParse(event.data);
    if (!parsed.success) return null;
    queryClient.setQueryData(automationKeys.messages(parsed.data.automation_id), (list: AutomationMessageView[] | undefined) =>
      list === undefined ? undefined : prependMessage(list, parsed.data),
    );
    return null;
  }
  if (event.event === 'automation.execution.updated') {
    const parsed = executionView.safeParse(event.data);
    if (!parsed.success) return null;
    queryClient.setQueryData(automationKeys.executions(parsed.data.automation_id), (list: ExecutionView[] | undefined) =>
      list === undefined ? undefined : upsertExecution(list, parsed.data),
    );
    return parsed.data;
  }
  return null;
}

/** Keeps the selected automation's history and messages live (realtime topic `automation:<id>`). */
export function useLiveAutomation(automationId: string | null, onExecution?: (execution: ExecutionView) => void): void {
  const queryClient = useQueryClient();
  useRealtimeTopic(automationId === null ? null : `automation:${automationId}`, (event) => {
    const execution = applyAutomationEvent(queryClient, event);
    if (execution) onExecution?.(execution);
  });
  // After a dropped connection, events may have been missed: read both lists again.
  useRealtimeReconnect(() => {
    if (automationId === null) return;
    void queryClient.invalidateQueries({ queryKey: automationKeys.executions(automationId) });
    void queryClient.invalidateQueries({ queryKey: automationKeys.messages(automationId) });
  });
}
