import { useEffect } from 'react';
import type { AutomationView } from '@common/api/automations';
import { describeTrigger } from '@/components/triggers-editor';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAutomationMessages } from '../api/find-automation-messages';
import { useExecutions } from '../api/find-executions';
import { triggersOf } from '../lib/automation-form';
import { AutomationAdminActions } from './automation-admin-actions';
import { AutomationStatusBadge } from './automation-status';
import { ExecutionHistoryList } from './execution-history';
import { MessagesCard } from './messages-card';

/** The details column: the automation, its execution history and its live messages. */
export function AutomationDetails({
  automation,
  admin,
}: {
  automation: AutomationView;
  /** Admins only: Configure opens the edit dialog; others get no button at all. */
  admin?: { onConfigure: () => void; onDeleted: () => void } | undefined;
}) {
  const executions = useExecutions(automation.id);
  const messages = useAutomationMessages(automation.id);
  const triggers = triggersOf(automation.config);
  // Failed reads of the history and the messages are only logged (spec §8).
  useEffect(() => {
    if (executions.error) console.error('Failed to fetch executions', executions.error);
  }, [executions.error]);
  useEffect(() => {
    if (messages.error) console.error('Failed to fetch messages', messages.error);
  }, [messages.error]);
  return (
    <div className="grid min-w-0 gap-4">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 px-4 sm:px-6">
          <div className="grid min-w-0 gap-1">
            <CardTitle className="flex flex-wrap items-center gap-2 break-words">
              {automation.name}
              <AutomationStatusBadge status={automation.status} />
            </CardTitle>
            {automation.description ? <CardDescription className="break-words">{automation.description}</CardDescription> : null}
            {triggers.length > 0 ? (
              <p className="text-xs break-words text-muted-foreground" data-testid="automation-triggers">
                Runs on: {triggers.map(describeTrigger).join('; ')}
              </p>
            ) : null}
          </div>
          {admin ? <AutomationAdminActions automation={automation} onConfigure={admin.onConfigure} onDeleted={admin.onDeleted} /> : null}
        </CardHeader>
        <CardContent className="grid gap-3 px-4 sm:px-6">
          <h3 className="text-sm font-semibold">Execution History</h3>
          {executions.isPending ? (
            <p className="py-6 text-center text-sm text-muted-foreground">Loading executions…</p>
          ) : (
            <ExecutionHistoryList executions={executions.data ?? []} />
          )}
        </CardContent>
      </Card>
      <MessagesCard messages={messages.data ?? []} loading={messages.isPending} />
    </div>
  );
}
