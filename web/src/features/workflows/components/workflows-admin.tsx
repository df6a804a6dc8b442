import { Workflow, Zap } from 'lucide-react';
import { useState } from 'react';
import type { WorkflowKind } from '@common/api/workflows';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api-client';
import { useWorkflows } from '../api/find-workflows';
import { KIND_WORDS } from '../lib/status';
import { WorkflowCard } from './workflow-card';
import { WorkflowFormDialog } from './workflow-form-dialog';

export const SEARCH_DEBOUNCE_MS = 300;

/** /admin/n8n-workflows and /admin/zapier-zaps: search (on the server), create, and a card per item. */
export function WorkflowsAdmin({ kind }: { kind: WorkflowKind }) {
  const words = KIND_WORDS[kind];
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().slice(0, 200), SEARCH_DEBOUNCE_MS);
  const workflows = useWorkflows(kind, q);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          wrapperClassName="sm:w-80"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={`Search ${words.plural}...`}
          aria-label={`Search ${words.plural}`}
          maxLength={200}
        />
        <WorkflowFormDialog kind={kind} />
      </div>
      {workflows.isPending ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          <Skeleton className="h-56" />
          <Skeleton className="h-56" />
        </div>
      ) : workflows.isError ? (
        <LoadError message={errorMessage(workflows.error, `The ${words.plural} could not be loaded.`)} onRetry={() => void workflows.refetch()} />
      ) : workflows.data.workflows.length === 0 ? (
        <EmptyState icon={kind === 'n8n' ? Workflow : Zap} title={words.empty}>
          {q === '' ? `Create the first one with Create ${words.noun}.` : `Nothing matches “${q}”.`}
        </EmptyState>
      ) : (
        <>
          {workflows.data.n8nSync && !workflows.data.n8nSync.ok ? (
            <p role="status" className="text-sm break-words text-muted-foreground">
              Showing the last known states of the workflows linked to n8n: {workflows.data.n8nSync.message}
            </p>
          ) : null}
          <ul aria-label={kind === 'n8n' ? 'n8n workflows' : 'Zapier zaps'} className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
            {workflows.data.workflows.map((workflow) => (
              <WorkflowCard key={workflow.id} workflow={workflow} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
