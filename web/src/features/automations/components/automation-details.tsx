import { Settings } from 'lucide-react';
import { useEffect } from 'react';
import type { AutomationView } from '@common/api/automations';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAutomationMessages } from '../api/find-automation-messages';
import { useExecutions } from '../api/find-executions';
import { AutomationStatusBadge } from './automation-status';
import { ExecutionHistoryList } from './execution-history';
import { MessagesCard } from './messages-card';

/** The details column: the automation, its execution history and its live messages. */
export function AutomationDetails({ automation, onConfigure }: { automation: AutomationView; onConfigure?: (() => void) | undefined }) {
  const executions = useExecutions(automation.id);
  const messages = useAutomationMessages(automation.id);
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
        <CardHeader className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <CardTitle className="flex flex-wrap items-center gap-2 break-words">
              {automation.name}
              <AutomationStatusBadge status={automation.status} />
            </CardTitle>
            {automation.description ? <CardDescription className="break-words">{automation.description}</CardDescription> : null}
          </div>
          {onConfigure ? (
            <Button variant="outline" size="sm" onClick={onConfigure}>
              <Settings aria-hidden />
              Configure
            </Button>
          ) : null}
        </CardHeader>
        <CardContent className="grid gap-3">
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
