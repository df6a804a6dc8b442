import { Eye, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { SECTION_LABELS, type ContentSectionKey } from '@common/api/content';
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
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useRevisions } from '../api/find-revisions';
import { useRevision } from '../api/get-revision';
import { revisionKindText } from '../lib/feedback';
import { ContentView } from './content-view';

export interface RevisionEntry {
  id: string;
  version: number;
  kind: 'save' | 'reset' | 'restore';
  restoredFrom: number | null;
  createdAt: string;
  createdBy: { id: string; name: string } | null;
}

/** One line of the history: version, kind, who and when; View, and Restore unless it is the current one. */
export function RevisionItem({
  revision,
  current,
  dirty,
  restoring,
  onView,
  onRestore,
  now,
}: {
  revision: RevisionEntry;
  current: boolean;
  dirty: boolean;
  restoring: boolean;
  onView: () => void;
  onRestore: () => void;
  now?: Date;
}) {
  const who = revision.createdBy?.name ?? 'Unknown user';
  return (
    <li className="flex min-w-0 flex-wrap items-center justify-between gap-2 border-b py-2 last:border-b-0" data-testid="revision">
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span>Version {revision.version}</span>
          <span className="text-muted-foreground">·</span>
          <span>{revisionKindText(revision)}</span>
          {current ? <Badge variant="secondary">Current</Badge> : null}
        </p>
        <p className="text-xs break-words text-muted-foreground">
          {who}, <time dateTime={revision.createdAt} title={formatDateTime(revision.createdAt)}>{formatRelative(revision.createdAt, now)}</time> ({formatDateTime(revision.createdAt)})
        </p>
      </div>
      <div className="flex flex-wrap gap-1">
        <Button type="button" variant="ghost" size="sm" onClick={onView} aria-label={`View version ${revision.version}`}>
          <Eye aria-hidden />
          View
        </Button>
        {current ? null : (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button type="button" variant="outline" size="sm" disabled={restoring} aria-label={`Restore version ${revision.version}`}>
                <RotateCcw aria-hidden />
                Restore
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Restore version {revision.version}?</AlertDialogTitle>
                <AlertDialogDescription>
                  Its content goes live at once. The current content stays in the history and can be restored.
                  {dirty ? ' Your unsaved changes in this editor are discarded.' : ''}
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction onClick={onRestore}>Restore</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
      </div>
    </li>
  );
}

function RevisionDialog({ section, revision, onClose }: { section: ContentSectionKey; revision: RevisionEntry | null; onClose: () => void }) {
  const detail = useRevision(section, revision?.id ?? null);
  return (
    <Dialog open={revision !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            {SECTION_LABELS[section]} content, version {revision?.version}
          </DialogTitle>
          <DialogDescription>
            {revision ? `${revisionKindText(revision)} by ${revision.createdBy?.name ?? 'an unknown user'} on ${formatDateTime(revision.createdAt)}.` : null}
          </DialogDescription>
        </DialogHeader>
        {detail.isPending ? (
          <Skeleton className="h-40" />
        ) : detail.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(detail.error, 'This revision could not be loaded.')}
          </p>
        ) : (
          <div className="min-w-0">
            <ContentView value={detail.data.data} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The section's revisions (who, when, kind), newest first, each viewable and restorable. */
export function RevisionHistory({
  section,
  currentVersion,
  dirty,
  restoring,
  onRestore,
}: {
  section: ContentSectionKey;
  currentVersion: number;
  dirty: boolean;
  restoring: boolean;
  onRestore: (revision: RevisionEntry) => void;
}) {
  const [open, setOpen] = useState(false);
  const [viewing, setViewing] = useState<RevisionEntry | null>(null);
  const revisions = useRevisions(section, open);
  const listId = `${section}-history`;
  return (
    <div className="grid min-w-0 gap-2">
      <div>
        <Button type="button" variant="ghost" size="sm" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
          <History aria-hidden />
          {open ? 'Hide History' : 'Show History'}
        </Button>
      </div>
      {open ? (
        <div id={listId} className="grid min-w-0 gap-2 rounded-lg border p-3">
          <h3 className="text-sm font-semibold">Revision history</h3>
          {revisions.isPending ? (
            <Skeleton className="h-16" />
          ) : revisions.isError ? (
            <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <p>{errorMessage(revisions.error, 'The history could not be loaded.')}</p>
              <Button type="button" variant="outline" size="sm" onClick={() => void revisions.refetch()}>
                Try Again
              </Button>
            </div>
          ) : revisions.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No revisions yet: the site shows the default content until this section is first saved.</p>
          ) : (
            <ul aria-label={`${SECTION_LABELS[section]} revisions`} className="grid min-w-0">
              {revisions.data.map((revision) => (
                <RevisionItem
                  key={revision.id}
                  revision={revision}
                  current={revision.version === currentVersion}
                  dirty={dirty}
                  restoring={restoring}
                  onView={() => setViewing(revision)}
                  onRestore={() => onRestore(revision)}
                />
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <RevisionDialog section={section} revision={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
