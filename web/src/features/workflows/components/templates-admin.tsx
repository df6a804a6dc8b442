import { FileStack } from 'lucide-react';
import { useState } from 'react';
import { WORKFLOW_TEXTS } from '@common/api/workflows';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api-client';
import { useTemplates } from '../api/find-templates';
import { TemplateCard } from './template-card';
import { TemplateFormDialog } from './template-form-dialog';
import { SEARCH_DEBOUNCE_MS } from './workflows-admin';

/** /admin/templates: search (on the server), create, and a card per template. */
export function TemplatesAdmin() {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().slice(0, 200), SEARCH_DEBOUNCE_MS);
  const templates = useTemplates(q);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          wrapperClassName="sm:w-80"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search templates..."
          aria-label="Search templates"
          maxLength={200}
        />
        <TemplateFormDialog />
      </div>
      {templates.isPending ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          <Skeleton className="h-56" />
          <Skeleton className="h-56" />
        </div>
      ) : templates.isError ? (
        <LoadError message={errorMessage(templates.error, 'The templates could not be loaded.')} onRetry={() => void templates.refetch()} />
      ) : templates.data.length === 0 ? (
        <EmptyState icon={FileStack} title={WORKFLOW_TEXTS.noTemplates}>
          {q === '' ? 'Create the first one with Create Template.' : `Nothing matches “${q}”.`}
        </EmptyState>
      ) : (
        <ul aria-label="Templates" className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {templates.data.map((template) => (
            <TemplateCard key={template.id} template={template} />
          ))}
        </ul>
      )}
    </div>
  );
}
