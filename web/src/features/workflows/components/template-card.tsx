import { Copy as CloneIcon, Download, FileJson } from 'lucide-react';
import { WORKFLOW_TEXTS, type TemplateView } from '@common/api/workflows';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { formatDate } from '@/lib/format';
import { useAssignTemplateClient } from '../api/assign-template-client';
import { useCloneTemplate } from '../api/clone-template';
import { useDeleteTemplate } from '../api/delete-template';
import { useDownloadTemplateN8nWorkflow } from '../api/download-template-n8n-workflow';
import { useRemoveTemplateClient } from '../api/remove-template-client';
import { useToggleTemplateStatus } from '../api/toggle-template-status';
import { assignErrorFeedback, deletedFeedback, errorFeedback, templateAssignRefusal, toggledFeedback } from '../lib/feedback';
import { KIND_WORDS } from '../lib/status';
import { ClientAssignmentDialog } from './client-assignment';
import { WebhookUrl } from './copy-url-button';
import { DeleteButton } from './delete-button';
import { describeTrigger } from '@/components/triggers-editor';
import { showError, showSuccess } from './show';
import { StatusBadge } from './status-badge';
import { TemplateFormDialog } from './template-form-dialog';

export const TEMPLATE_ASSIGNMENT_NOTE =
  "Assigning a client creates that client's automation from this template (its name, webhook URL and triggers). Removing the client later keeps the automation.";

/** One template: type, status and its switch, webhook URL, triggers, its n8n JSON, clients, edit, clone, delete. */
export function TemplateCard({ template }: { template: TemplateView }) {
  const toggle = useToggleTemplateStatus();
  const clone = useCloneTemplate();
  const remove = useDeleteTemplate();
  const assign = useAssignTemplateClient();
  const unassign = useRemoveTemplateClient();
  const download = useDownloadTemplateN8nWorkflow();
  const switchId = `status-${template.id}`;
  const assigned = template.clientAssignments.map((a) => ({ id: a.clientId, name: a.clientName, assignedAt: a.assignedAt }));
  const { triggers, webhookUrl } = template.workflowConfig;

  return (
    <li className="min-w-0">
      <Card className="h-full gap-3 py-4" aria-label={template.name} role="article">
        <CardContent className="grid h-full min-w-0 grid-cols-1 gap-3 px-4">
          <div className="flex min-w-0 items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="truncate font-semibold" title={template.name}>
                {template.name}
              </h3>
              <p className="text-xs text-muted-foreground">Created {formatDate(template.createdAt)}</p>
            </div>
            <div className="flex shrink-0 gap-1">
              <Badge variant="outline">{KIND_WORDS[template.type].app}</Badge>
              <StatusBadge status={template.status} />
            </div>
          </div>
          {template.description ? <p className="line-clamp-3 text-sm break-words text-muted-foreground">{template.description}</p> : null}
          {webhookUrl ? <WebhookUrl url={webhookUrl} label={`Copy the webhook URL of ${template.name}`} /> : null}
          {triggers.length > 0 ? (
            <ul aria-label="Triggers" className="flex flex-wrap gap-1">
              {triggers.map((trigger, index) => (
                <li key={index} className="max-w-full min-w-0">
                  <Badge variant="secondary" className="max-w-full" title={describeTrigger(trigger)}>
                    <span className="truncate">{describeTrigger(trigger)}</span>
                  </Badge>
                </li>
              ))}
            </ul>
          ) : null}
          {template.hasN8nWorkflow ? (
            <div className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5">
              <span className="flex min-w-0 items-center gap-1.5 text-sm">
                <FileJson aria-hidden className="size-4 shrink-0 text-primary" />
                <span className="truncate">Importable n8n workflow</span>
              </span>
              <Button
                variant="ghost"
                size="sm"
                disabled={download.isPending}
                aria-label={`Download the n8n workflow of ${template.name}`}
                onClick={() =>
                  download.mutate(
                    { id: template.id, name: template.name },
                    { onError: (error) => showError(errorFeedback(error, 'The n8n workflow could not be downloaded.')) },
                  )
                }
              >
                <Download aria-hidden />
                Download
              </Button>
            </div>
          ) : null}
          <div className="flex items-center gap-2">
            <Switch
              id={switchId}
              checked={template.status === 'active'}
              disabled={toggle.isPending}
              onCheckedChange={() =>
                toggle.mutate(template.id, {
                  onSuccess: (saved) => showSuccess(toggledFeedback('Template', saved.status, false)),
                  onError: (error) => showError(errorFeedback(error, 'The template could not be switched.')),
                })
              }
            />
            <label htmlFor={switchId} className="text-sm">
              Active
            </label>
          </div>
          <div className="mt-auto flex flex-wrap items-center gap-2 border-t pt-3">
            <ClientAssignmentDialog
              itemName={template.name}
              assigned={assigned}
              mode="all"
              pending={assign.isPending || unassign.isPending}
              note={TEMPLATE_ASSIGNMENT_NOTE}
              onAssign={(client, done) => {
                const refusal = templateAssignRefusal(
                  assigned.map((a) => a.id),
                  client,
                );
                if (refusal) {
                  showError(refusal);
                  return;
                }
                assign.mutate(
                  { id: template.id, clientId: client.id },
                  {
                    onSuccess: () => {
                      showSuccess({ title: WORKFLOW_TEXTS.clientAssigned, description: `${client.name} now has an automation made from this template.` });
                      done();
                    },
                    onError: (error) => showError(assignErrorFeedback(error)),
                  },
                );
              }}
              onRemove={(client) =>
                unassign.mutate(
                  { id: template.id, clientId: client.id },
                  {
                    onSuccess: () => showSuccess({ title: WORKFLOW_TEXTS.clientRemoved, description: `${client.name}: the automation it got stays.` }),
                    onError: (error) => showError(errorFeedback(error, 'The client could not be removed.')),
                  },
                )
              }
            />
            <TemplateFormDialog template={template} />
            <Button
              variant="outline"
              size="sm"
              disabled={clone.isPending}
              aria-label={`Clone ${template.name}`}
              onClick={() =>
                clone.mutate(template.id, {
                  onSuccess: (copy) => showSuccess({ title: WORKFLOW_TEXTS.templateCloned, description: copy.name }),
                  onError: (error) => showError(errorFeedback(error, 'The template could not be cloned.')),
                })
              }
            >
              <CloneIcon aria-hidden />
              Clone
            </Button>
            <DeleteButton
              noun="Template"
              name={template.name}
              pending={remove.isPending}
              note={template.clientCount > 0 ? 'The automations made from it for its clients stay.' : undefined}
              onConfirm={() =>
                remove.mutate(template.id, {
                  onSuccess: () => showSuccess(deletedFeedback('template', template.name)),
                  onError: (error) => showError(errorFeedback(error, 'The template could not be deleted.')),
                })
              }
            />
          </div>
        </CardContent>
      </Card>
    </li>
  );
}
