import { Download, RefreshCw, Workflow } from 'lucide-react';
import { toast } from 'sonner';
import type { N8nWorkflow } from '@common/api/n8n';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { useLinkedN8nWorkflowIds } from '../api/find-linked-workflows';
import { useN8nWorkflows } from '../api/get-n8n-workflows';
import { useImportN8nWorkflow } from '../api/import-n8n-workflow';
import { useSetN8nWorkflowActive } from '../api/set-n8n-workflow-active';
import { CopyValue } from './copy-button';

export interface WorkflowRowProps {
  workflow: N8nWorkflow;
  imported: boolean;
  switching: boolean;
  importing: boolean;
  onToggle: (active: boolean) => void;
  onImport: () => void;
}

/** One workflow of the instance: n8n's own name, active state and webhook URL. */
export function N8nWorkflowRow({ workflow, imported, switching, importing, onToggle, onImport }: WorkflowRowProps) {
  const name = workflow.name || `Workflow ${workflow.id}`;
  return (
    <li className="grid min-w-0 gap-3 rounded-lg border p-3" data-testid="n8n-workflow">
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2">
          <span className="min-w-0 font-medium break-words">{name}</span>
          <Badge variant={workflow.active ? 'success' : 'secondary'}>{workflow.active ? 'Active' : 'Inactive'}</Badge>
        </div>
        <div className="flex items-center gap-3">
          <Switch
            aria-label={`${workflow.active ? 'Deactivate' : 'Activate'} ${name} in n8n`}
            checked={workflow.active}
            disabled={switching}
            onCheckedChange={onToggle}
          />
          {imported ? (
            <Badge variant="outline">Imported</Badge>
          ) : (
            <Button type="button" size="sm" variant="outline" disabled={importing} onClick={onImport} aria-label={`Import ${name}`}>
              <Download aria-hidden />
              {importing ? 'Importing…' : 'Import'}
            </Button>
          )}
        </div>
      </div>
      {workflow.webhookUrl ? (
        <CopyValue label="Webhook URL" value={workflow.webhookUrl} toastTitle="URL copied to clipboard" />
      ) : (
        <p className="text-xs text-muted-foreground">No Webhook node taking POST: Parley cannot run this workflow.</p>
      )}
    </li>
  );
}

/** The connected instance's workflows, with import into Parley and activation in n8n. */
export function N8nWorkflowsCard() {
  const workflows = useN8nWorkflows(true);
  const linked = useLinkedN8nWorkflowIds(true);
  const setActive = useSetN8nWorkflowActive();
  const importWorkflow = useImportN8nWorkflow();

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1.5">
            <CardTitle className="flex items-center gap-2">
              <Workflow aria-hidden className="size-4 text-primary" />
              Workflows in n8n
            </CardTitle>
            <CardDescription>As n8n reports them. Import one to assign it to clients and run it from Parley.</CardDescription>
          </div>
          <Button type="button" variant="ghost" size="sm" disabled={workflows.isFetching} onClick={() => void workflows.refetch()}>
            <RefreshCw aria-hidden className={workflows.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {workflows.isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        ) : workflows.isError ? (
          <Alert variant="destructive">
            <AlertTitle>n8n&apos;s workflows could not be loaded</AlertTitle>
            <AlertDescription className="break-words">{errorMessage(workflows.error, 'n8n did not answer.')}</AlertDescription>
          </Alert>
        ) : workflows.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">This n8n instance has no workflows yet. Import the starter workflow below into n8n to begin.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Workflows in n8n">
            {workflows.data.map((workflow) => (
              <N8nWorkflowRow
                key={workflow.id}
                workflow={workflow}
                imported={linked.data?.has(workflow.id) ?? false}
                switching={setActive.isPending && setActive.variables.id === workflow.id}
                importing={importWorkflow.isPending && importWorkflow.variables.n8nWorkflowId === workflow.id}
                onToggle={(active) =>
                  setActive.mutate(
                    { id: workflow.id, active },
                    {
                      onSuccess: (updated) => toast.success(updated.active ? 'Workflow activated in n8n' : 'Workflow deactivated in n8n', { description: updated.name }),
                      onError: (error) => toast.error('Error', { description: errorMessage(error, 'n8n did not switch the workflow.') }),
                    },
                  )
                }
                onImport={() =>
                  importWorkflow.mutate(
                    { n8nWorkflowId: workflow.id },
                    {
                      onSuccess: () => toast.success('Workflow Imported', { description: `${workflow.name} is now in Parley's n8n workflows.` }),
                      onError: (error) => toast.error('Import failed', { description: errorMessage(error, 'The workflow could not be imported.') }),
                    },
                  )
                }
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
