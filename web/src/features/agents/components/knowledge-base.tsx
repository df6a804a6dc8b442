import { BookOpen, Download, ExternalLink, FileQuestion } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import type { KnowledgeView } from '@common/api/agents';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api-client';
import { formatRelative } from '@/lib/format';
import { useExportKnowledge } from '../api/export-knowledge';
import { useKnowledge } from '../api/get-knowledge';
import type { KnowledgeFormat } from '../lib/file-kind';
import { ArticleDialog } from './article-dialog';
import { DeleteKnowledgeButton } from './delete-knowledge-button';
import { EntryDialog } from './entry-dialog';
import { ImportKnowledgeDialog } from './import-knowledge-dialog';

function count(shown: number, total: number, searching: boolean): string {
  return searching && shown !== total ? `${shown} of ${total}` : String(total);
}

/** The column headings of a knowledge table, and an unlabelled actions column for editors. */
function KnowledgeTableHeader({ columns, canEdit }: { columns: string[]; canEdit: boolean }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column) => (
          <TableHead key={column}>{column}</TableHead>
        ))}
        {canEdit ? (
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        ) : null}
      </TableRow>
    </TableHeader>
  );
}

function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <TableCell className="text-right align-top">
      <div className="flex justify-end gap-1">{children}</div>
    </TableCell>
  );
}

function EntriesTable({ clientId, data, canEdit }: { clientId: string; data: KnowledgeView; canEdit: boolean }) {
  return (
    <Table aria-label="FAQ entries">
      <KnowledgeTableHeader columns={['Questions', 'Answer', 'Updated']} canEdit={canEdit} />
      <TableBody>
        {data.entries.map((entry) => {
          const [first = '', ...more] = entry.questions;
          return (
            <TableRow key={entry.id}>
              <TableCell className="max-w-64 align-top whitespace-normal">
                <div className="font-medium">{first}</div>
                {more.length > 0 ? (
                  <div className="text-xs text-muted-foreground" title={more.join('\n')}>
                    +{more.length} more way{more.length === 1 ? '' : 's'} to ask
                  </div>
                ) : null}
              </TableCell>
              <TableCell className="max-w-md align-top whitespace-normal">
                <p className="line-clamp-3 text-sm">{entry.answer}</p>
                {entry.link ? (
                  <a href={entry.link} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-1 text-xs text-primary hover:underline">
                    <ExternalLink aria-hidden className="size-3" />
                    {entry.link}
                  </a>
                ) : null}
              </TableCell>
              <TableCell className="align-top text-sm text-muted-foreground">{formatRelative(entry.updatedAt)}</TableCell>
              {canEdit ? (
                <ActionsCell>
                  <EntryDialog clientId={clientId} entry={entry} />
                  <DeleteKnowledgeButton clientId={clientId} kind="entry" id={entry.id} name={first} />
                </ActionsCell>
              ) : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function ArticlesTable({ clientId, data, canEdit }: { clientId: string; data: KnowledgeView; canEdit: boolean }) {
  return (
    <Table aria-label="Articles">
      <KnowledgeTableHeader columns={['Title', 'Text', 'Updated']} canEdit={canEdit} />
      <TableBody>
        {data.articles.map((article) => (
          <TableRow key={article.id}>
            <TableCell className="max-w-56 align-top font-medium whitespace-normal">{article.title}</TableCell>
            <TableCell className="max-w-md align-top whitespace-normal">
              <p className="line-clamp-3 text-sm text-muted-foreground">{article.body}</p>
            </TableCell>
            <TableCell className="align-top text-sm text-muted-foreground">{formatRelative(article.updatedAt)}</TableCell>
            {canEdit ? (
              <ActionsCell>
                <ArticleDialog clientId={clientId} article={article} />
                <DeleteKnowledgeButton clientId={clientId} kind="article" id={article.id} name={article.title} />
              </ActionsCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ExportMenu({ clientId, clientName }: { clientId: string; clientName: string }) {
  const exporter = useExportKnowledge();
  const run = (format: KnowledgeFormat) =>
    exporter.mutate(
      { clientId, clientName, format },
      {
        onSuccess: (name) => toast.success('Export Downloaded', { description: name }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The FAQ could not be exported.') }),
      },
    );
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="outline" disabled={exporter.isPending}>
          <Download aria-hidden />
          {exporter.isPending ? 'Exporting...' : 'Export'}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => run('csv')}>Export as CSV</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => run('json')}>Export as JSON</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * A client's knowledge base: FAQ entries and articles with search, create/edit/delete, import and
 * export. `newEntry`: questions a link asked to start a new FAQ entry from (lib/knowledge-entry-link.ts) —
 * its form opens with them; `onNewEntryClosed` when it closes.
 */
export function KnowledgeBase({
  clientId,
  clientName,
  canEdit,
  newEntry = null,
  onNewEntryClosed,
}: {
  clientId: string;
  clientName: string;
  canEdit: boolean;
  newEntry?: readonly string[] | null;
  onNewEntryClosed?: () => void;
}) {
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<'faq' | 'articles'>('faq');
  const debounced = useDebouncedValue(search, 250).trim();
  const knowledge = useKnowledge(clientId, debounced);
  const searching = debounced !== '';

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput
          wrapperClassName="min-w-0 flex-1 basis-60"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search questions, answers and articles..."
          aria-label="Search the knowledge base"
          maxLength={200}
        />
        <div className="flex flex-wrap gap-2">
          {canEdit ? (
            <>
              {/* Keyed by the link's questions: another link, or none once it is closed, starts a fresh form. */}
              <EntryDialog key={newEntry ? `new:${newEntry.join('\n')}` : 'new'} clientId={clientId} prefill={newEntry ?? undefined} onClosed={onNewEntryClosed} />
              <ArticleDialog clientId={clientId} />
              <ImportKnowledgeDialog clientId={clientId} />
            </>
          ) : null}
          <ExportMenu clientId={clientId} clientName={clientName} />
        </div>
      </div>

      {knowledge.isPending ? (
        <div className="grid gap-2">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : knowledge.isError ? (
        <LoadError className="p-6" message={errorMessage(knowledge.error, 'The knowledge base could not be loaded.')} onRetry={() => void knowledge.refetch()} />
      ) : (
        <Tabs value={tab} onValueChange={(value) => setTab(value === 'articles' ? 'articles' : 'faq')}>
          <TabsList>
            <TabsTrigger value="faq">
              <FileQuestion aria-hidden />
              FAQ ({count(knowledge.data.entries.length, knowledge.data.totals.entries, searching)})
            </TabsTrigger>
            <TabsTrigger value="articles">
              <BookOpen aria-hidden />
              Articles ({count(knowledge.data.articles.length, knowledge.data.totals.articles, searching)})
            </TabsTrigger>
          </TabsList>
          <TabsContent value="faq">
            {knowledge.data.entries.length === 0 ? (
              <EmptyState icon={FileQuestion} title={searching ? 'No FAQ entry matches' : 'No FAQ entries yet'}>
                <p>
                  {searching
                    ? 'Try other words, or clear the search.'
                    : 'Add the questions customers ask, each with a few ways of asking it and the answer, or import a CSV or JSON file.'}
                </p>
              </EmptyState>
            ) : (
              <Card className="py-2">
                <CardContent className="px-2">
                  <EntriesTable clientId={clientId} data={knowledge.data} canEdit={canEdit} />
                </CardContent>
              </Card>
            )}
          </TabsContent>
          <TabsContent value="articles">
            {knowledge.data.articles.length === 0 ? (
              <EmptyState icon={BookOpen} title={searching ? 'No article matches' : 'No articles yet'}>
                <p>{searching ? 'Try other words, or clear the search.' : 'Articles hold longer text the agent can answer from: policies, product details, guides.'}</p>
              </EmptyState>
            ) : (
              <Card className="py-2">
                <CardContent className="px-2">
                  <ArticlesTable clientId={clientId} data={knowledge.data} canEdit={canEdit} />
                </CardContent>
              </Card>
            )}
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
