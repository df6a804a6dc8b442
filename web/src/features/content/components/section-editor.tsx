import { RefreshCw, RotateCcw, Save } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { resetToast, SECTION_LABELS, SECTION_SAVED_TOASTS, type ContentSectionKey, type ContentSectionView, type SavedSection, type SectionData } from '@common/api/content';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FieldError } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useContentSections } from '../api/find-content-sections';
import { useResetSection } from '../api/reset-section';
import { useRestoreRevision } from '../api/restore-revision';
import { useSaveSection } from '../api/save-section';
import { failure, isConflict, restoredToast, sanitizedWarning, sectionConflictText } from '../lib/feedback';
import { SECTION_FORMS, sectionFieldErrors, sectionFormOf, sectionResolver, type SectionForms } from '../lib/section-forms';
import { RevisionHistory, type RevisionEntry } from './revision-history';

export type SectionForm<K extends ContentSectionKey> = UseFormReturn<SectionForms[K] & FieldValues, unknown, SectionData[K]>;

/** Who saved the section last, or that the site shows the defaults. */
export function savedLine(view: Pick<ContentSectionView, 'version' | 'updatedAt' | 'updatedBy'>): string {
  if (view.version === 0 || view.updatedAt === null) return 'Not saved yet: the site shows the default content.';
  return `Version ${view.version}, saved by ${view.updatedBy?.name ?? 'an unknown user'} on ${formatDateTime(view.updatedAt)}.`;
}

/** The conflict notice: someone saved since this editor loaded; Reload brings their version. */
export function ConflictAlert({ message, onReload, reloading }: { message: string; onReload: () => void; reloading: boolean }) {
  return (
    <Alert variant="destructive" data-testid="conflict">
      <AlertTitle>Not saved: this content changed</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <Button type="button" variant="outline" size="sm" onClick={onReload} disabled={reloading}>
          <RefreshCw aria-hidden />
          {reloading ? 'Reloading...' : 'Reload'}
        </Button>
      </AlertDescription>
    </Alert>
  );
}

interface EditorProps<K extends ContentSectionKey> {
  section: K;
  description: string;
  children: (form: SectionForm<K>) => ReactNode;
}

/**
 * One page-content section: loads it, and mounts its editor anew whenever the stored version
 * changes through this editor (a save, reset, restore or Reload), so the form always edits the
 * version it will send back. A save on top of an older version is refused by the server (409).
 */
export function SectionEditor<K extends ContentSectionKey>(props: EditorProps<K>) {
  const sections = useContentSections();
  const view = sections.data?.find((s) => s.section === props.section);
  if (sections.isPending) return <Skeleton className="h-96" />;
  if (sections.isError || !view) {
    return (
      <LoadError
        message={sections.isError ? errorMessage(sections.error, 'The page content could not be loaded.') : `The ${SECTION_LABELS[props.section]} content could not be loaded.`}
        onRetry={() => void sections.refetch()}
      />
    );
  }
  return <LoadedSectionEditor key={view.version} {...props} view={view} reload={() => sections.refetch()} />;
}

function LoadedSectionEditor<K extends ContentSectionKey>({
  section,
  description,
  children,
  view,
  reload,
}: EditorProps<K> & { view: ContentSectionView; reload: () => Promise<unknown> }) {
  const [initial] = useState(() => sectionFormOf(section, view.data));
  const form: SectionForm<K> = useForm<SectionForms[K] & FieldValues, unknown, SectionData[K]>({
    resolver: sectionResolver(section),
    defaultValues: initial.form as never,
  });
  const save = useSaveSection();
  const reset = useResetSection();
  const restore = useRestoreRevision();
  const [conflict, setConflict] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const { isDirty, errors } = form.formState;
  const busy = save.isPending || reset.isPending || restore.isPending;
  const label = SECTION_LABELS[section];
  const headingId = `${section}-editor-title`;

  /** Errors shared by save, reset and restore: a conflict, field errors, or the server's message. */
  const onError = (title: string, fallback: string) => (error: unknown) => {
    if (isConflict(error)) {
      const text = sectionConflictText(section, error);
      setConflict(text);
      toast.error(title, { description: text });
      return;
    }
    if (isApiError(error) && error.fields) {
      const flat = sectionFieldErrors(section, Object.entries(error.fields).map(([path, message]) => ({ path, message })));
      for (const [path, message] of Object.entries(flat)) {
        if (path === 'root') form.setError('root.server', { type: 'server', message });
        else form.setError(path as Path<SectionForms[K] & FieldValues>, { type: 'server', message });
      }
    }
    const { description: text } = failure(title, error, fallback);
    toast.error(title, { description: text });
  };

  const onSaved = (saved: SavedSection) => {
    const warning = sanitizedWarning(saved);
    if (warning) toast.warning(warning.title, { description: warning.description });
  };

  const submit = form.handleSubmit(() => {
    setConflict(null);
    // The form's own text goes to the server, which sanitises it and says what it changed.
    const data = SECTION_FORMS[section].toData(form.getValues());
    // Promise callbacks, not mutate's: the stored version remounts this editor before mutate's callbacks would run.
    void save.mutateAsync({ section, version: view.version, data }).then((saved) => {
      toast.success(SECTION_SAVED_TOASTS[section]);
      onSaved(saved);
    }, onError('Not saved', `The ${label} content could not be saved. Please try again.`));
  });

  const resetToDefaults = () => {
    setConflict(null);
    void reset.mutateAsync({ section, version: view.version }).then(
      () => void toast.success(resetToast(section)),
      onError('Not reset', `The ${label} content could not be reset. Please try again.`),
    );
  };

  const restoreRevision = (revision: RevisionEntry) => {
    setConflict(null);
    void restore.mutateAsync({ section, revisionId: revision.id, version: view.version }).then(() => {
      const done = restoredToast(section, revision.version);
      toast.success(done.title, { description: done.description });
    }, onError('Not restored', `Version ${revision.version} could not be restored. Please try again.`));
  };

  // The newest stored version remounts this editor with it (the key is the version).
  const reloadLatest = () => {
    setReloading(true);
    void reload().finally(() => setReloading(false));
  };

  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-4">
      <Card className="gap-4">
        <CardHeader>
          <h2 id={headingId} className="text-lg leading-none font-semibold">
            {label}
          </h2>
          <CardDescription>{description}</CardDescription>
          <p className="text-xs text-muted-foreground" data-testid="saved-line">
            {savedLine(view)}
          </p>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={(event) => void submit(event)} className="grid min-w-0 gap-4" aria-labelledby={headingId}>
            {initial.matches ? null : (
              <Alert>
                <AlertTitle>The stored content could not be read</AlertTitle>
                <AlertDescription>The editor shows the default content. Save to replace what is stored, or restore an earlier version below.</AlertDescription>
              </Alert>
            )}
            {conflict !== null ? <ConflictAlert message={conflict} onReload={reloadLatest} reloading={reloading} /> : null}
            {children(form)}
            {errors.root?.server?.message ? <FieldError>{errors.root.server.message}</FieldError> : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                <Save aria-hidden />
                {save.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
              <AlertDialog>
                <AlertDialogTrigger asChild>
                  <Button type="button" variant="outline" disabled={busy}>
                    <RotateCcw aria-hidden />
                    Reset to Defaults
                  </Button>
                </AlertDialogTrigger>
                <AlertDialogContent>
                  <AlertDialogHeader>
                    <AlertDialogTitle>Reset the {label} content to its defaults?</AlertDialogTitle>
                    <AlertDialogDescription>
                      The default content goes live at once. The current content stays in the history and can be restored.
                      {isDirty ? ' Your unsaved changes in this editor are discarded.' : ''}
                    </AlertDialogDescription>
                  </AlertDialogHeader>
                  <AlertDialogFooter>
                    <AlertDialogCancel>Cancel</AlertDialogCancel>
                    <AlertDialogAction onClick={resetToDefaults}>Reset to Defaults</AlertDialogAction>
                  </AlertDialogFooter>
                </AlertDialogContent>
              </AlertDialog>
            </div>
          </form>
        </CardContent>
      </Card>
      <RevisionHistory section={section} currentVersion={view.version} dirty={isDirty} restoring={busy} onRestore={restoreRevision} />
    </section>
  );
}
