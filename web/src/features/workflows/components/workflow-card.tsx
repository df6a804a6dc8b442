import { Link2 } from 'lucide-react';
import { WORKFLOW_TEXTS, type WorkflowView } from '@common/api/workflows';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { formatDate } from '@/lib/format';
import { useAssignWorkflowClient } from '../api/assign-workflow-client';
import { useDeleteWorkflow } from '../api/delete-workflow';
import { useRemoveWorkflowClient } from '../api/remove-workflow-client';
import { useToggleWorkflowStatus } from '../api/toggle-workflow-status';
import { assignErrorFeedback, deletedFeedback, errorFeedback, toggledFeedback } from '../lib/feedback';
import { KIND_WORDS, nextStatus } from '../lib/status';
import { ClientAssignmentDialog } from './client-assignment';
import { WebhookUrl } from './copy-url-button';
import { DeleteButton } from './delete-button';
import { showError, showSuccess } from './show';
import { StatusBadge } from './status-badge';
import { WorkflowFormDialog } from './workflow-form-dialog';

/** What the status switch does, said next to it: a linked workflow is switched in n8n as well. */
export function toggleHint(workflow: Pick<WorkflowView, 'status' | 'n8nWorkflowId'>): string {
  const next = nextStatus(workflow.status);
  if (workflow.n8nWorkflowId === null) return next === 'active' ? 'Switch on to make it active' : 'Switch off to pause it';
  return next === 'active' ? 'Switching on activates the workflow in n8n' : 'Switching off deactivates the workflow in n8n';
}

/** One n8n workflow or zap: status and its switch, webhook URL with copy, apps, clients, edit, delete. */
export function WorkflowCard({ workflow }: { workflow: WorkflowView }) {
  const words = KIND_WORDS[workflow.kind];
  const toggle = useToggleWorkflowStatus();
  const remove = useDeleteWorkflow();
  const assign = useAssignWorkflowClient();
  const unassign = useRemoveWorkflowClient();
  const linked = workflow.n8nWorkflowId !== null;
  const switchId = `status-${workflow.id}`;

  return (
    <li className="min-w-0">
      <Card className="h-full gap-3 py-4" aria-label={workflow.name} role="article">
        <CardContent className="grid h-full min-w-0 grid-cols-1 gap-3 px-4">
          <div className="flex min-w-0 items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="truncate font-semibold" title={workflow.name}>
                {workflow.name}
              </h3>
              <p className="text-xs text-muted-foreground">Created {formatDate(workflow.createdAt)}</p>
            </div>
            <StatusBadge status={workflow.status} />
          </div>
          {workflow.description ? <p className="line-clamp-3 text-sm break-words text-muted-foreground">{workflow.description}</p> : null}
          {linked ? (
            <Badge variant="outline" className="max-w-full">
              <Link2 aria-hidden />
              <span className="truncate">Linked to n8n workflow {workflow.n8nWorkflowId}</span>
            </Badge>
          ) : null}
          <WebhookUrl url={workflow.webhookUrl} label={`Copy the webhook URL of ${workflow.name}`} />
          {workflow.kind === 'zapier' && workflow.appIntegrations.length > 0 ? (
            <ul aria-label="App integrations" className="flex flex-wrap gap-1">
              {workflow.appIntegrations.map((app) => (
                <li key={app}>
                  <Badge variant="secondary" className="max-w-full">
                    <span className="truncate">{app}</span>
                  </Badge>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex items-center gap-2">
            <Switch
              id={switchId}
              checked={workflow.status === 'active'}
              disabled={toggle.isPending}
              aria-describedby={`${switchId}-hint`}
              onCheckedChange={() =>
                toggle.mutate(workflow.id, {
                  onSuccess: (saved) => showSuccess(toggledFeedback(words.noun, saved.status, saved.n8nWorkflowId !== null)),
                  onError: (error) => showError(errorFeedback(error, `The ${words.noun.toLowerCase()} could not be switched.`)),
                })
              }
            />
            <label htmlFor={switchId} className="text-sm">
              Active
            </label>
            <span id={`${switchId}-hint`} className="min-w-0 text-xs text-muted-foreground">
              {toggle.isPending && linked ? 'Asking n8n...' : toggleHint(workflow)}
            </span>
          </div>
          <div className="mt-auto flex flex-wrap items-center gap-2 border-t pt-3">
            <ClientAssignmentDialog
              itemName={workflow.name}
              assigned={workflow.assignedClients}
              mode="unassigned-only"
              pending={assign.isPending || unassign.isPending}
              note={`The client businesses this ${words.noun.toLowerCase()} runs for (${workflow.clientCount}).`}
              onAssign={(client, done) =>
                assign.mutate(
                  { id: workflow.id, clientId: client.id },
                  {
                    onSuccess: () => {
                      showSuccess({ title: WORKFLOW_TEXTS.clientAssigned, description: client.name });
                      done();
                    },
                    onError: (error) => showError(assignErrorFeedback(error)),
                  },
                )
              }
              onRemove={(client) =>
                unassign.mutate(
                  { id: workflow.id, clientId: client.id },
                  {
                    onSuccess: () => showSuccess({ title: WORKFLOW_TEXTS.clientRemoved, description: client.name }),
                    onError: (error) => showError(errorFeedback(error, 'The client could not be removed.')),
                  },
                )
              }
            />
            <WorkflowFormDialog kind={workflow.kind} workflow={workflow} />
            <DeleteButton
              noun={words.noun}
              name={workflow.name}
              pending={remove.isPending}
              note={linked ? "Only Parley's record is deleted; the workflow stays in n8n." : undefined}
              onConfirm={() =>
                remove.mutate(workflow.id, {
                  onSuccess: () => showSuccess(deletedFeedback(workflow.kind, workflow.name)),
                  onError: (error) => showError(errorFeedback(error, `The ${words.noun.toLowerCase()} could not be deleted.`)),
                })
              }
            />
          </div>
        </CardContent>
      </Card>
    </li>
  );
}
