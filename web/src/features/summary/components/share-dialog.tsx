import { Link2, Plus, Share2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import type { InsightsQuery } from '@common/api/insights';
import { type CreatedSummaryShare, DEFAULT_SHARE_EXPIRY_DAYS, SHARE_EXPIRY_DAYS, type SummaryShare } from '@common/api/summary-shares';
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
import { CopyField } from '@/components/copy-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { describePeriod } from '@/lib/period';
import { useCreateSummaryShare } from '../api/create-summary-share';
import { useSummaryShares } from '../api/get-summary-shares';
import { useRevokeSummaryShare } from '../api/revoke-summary-share';

type ExpiryDays = (typeof SHARE_EXPIRY_DAYS)[number];

export const EXPIRY_LABELS: Record<ExpiryDays, string> = { 1: '1 day', 7: '7 days', 30: '30 days' };
export const NO_SHARES = 'No share links yet.';

/** "Active · expires …", "Expired …", "Revoked …". */
export function shareStatusText(share: Pick<SummaryShare, 'status' | 'expiresAt' | 'revokedAt'>): string {
  if (share.status === 'revoked') return `Revoked ${formatDateTime(share.revokedAt)}`;
  if (share.status === 'expired') return `Expired ${formatDateTime(share.expiresAt)}`;
  return `Active · expires ${formatDateTime(share.expiresAt)}`;
}

/** What a link shows: its frozen period and its client. */
export function shareSummaryText(share: Pick<SummaryShare, 'period' | 'clientName' | 'clientId'>): string {
  return `${describePeriod(share.period)} · ${share.clientId === null ? 'All clients' : (share.clientName ?? 'One client')}`;
}

/** How long the new link lives: 1, 7 or 30 days. */
export function ShareExpiryField({ value, onChange }: { value: ExpiryDays; onChange?: (days: ExpiryDays) => void }) {
  const name = useId();
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm font-medium">Link expires after</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {SHARE_EXPIRY_DAYS.map((days) => (
          <label key={days} className="flex items-center gap-2 text-sm">
            <input type="radio" name={name} className="size-4 accent-primary" value={days} checked={value === days} onChange={() => onChange?.(days)} />
            {EXPIRY_LABELS[days]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The new link, shown this once, with a copy button. */
export function NewShareLink({ created }: { created: CreatedSummaryShare }) {
  return (
    <div className="grid min-w-0 gap-3">
      <Alert className="border-warning/40 bg-warning/10">
        <TriangleAlert aria-hidden />
        <AlertTitle>Copy this link now</AlertTitle>
        <AlertDescription>
          Anyone with it can open this summary without signing in until {formatDateTime(created.share.expiresAt)}. Parley keeps only a hash of it, so it cannot show it
          again.
        </AlertDescription>
      </Alert>
      <CopyField label="Share link" value={created.url} kind="url" />
    </div>
  );
}

function RevokeShareButton({ share }: { share: SummaryShare }) {
  const revoke = useRevokeSummaryShare();
  const label = shareSummaryText(share);
  const confirm = () =>
    revoke.mutate(share.id, {
      onSuccess: () => toast.success('Link revoked', { description: 'It no longer opens the summary.' }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The link could not be revoked.') }),
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Revoke the link to ${label}`} disabled={revoke.isPending}>
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke this link?</AlertDialogTitle>
          <AlertDialogDescription>Anyone opening the link to {label} will be told it was revoked. This cannot be undone.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirm}>
            Revoke
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The links made so far: what each shows, until when, and Revoke for those still active. */
export function ShareLinkList({ shares, showCreator }: { shares: readonly SummaryShare[]; showCreator: boolean }) {
  if (shares.length === 0) return <p className="text-sm text-muted-foreground">{NO_SHARES}</p>;
  return (
    <ul className="grid gap-2" aria-label="Share links">
      {shares.map((share) => (
        <li key={share.id} className="flex flex-wrap items-start gap-3 rounded-lg border p-3">
          <Link2 aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <div className="grid min-w-0 flex-1 gap-1">
            <p className="text-sm font-medium break-words">{shareSummaryText(share)}</p>
            <p className="flex min-w-0 flex-wrap items-center gap-2 text-xs text-muted-foreground">
              {share.status === 'active' ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">{share.status === 'expired' ? 'Expired' : 'Revoked'}</Badge>}
              <span>
                {share.status === 'active' ? `Expires ${formatDateTime(share.expiresAt)}` : shareStatusText(share)} · created {formatDateTime(share.createdAt)}
                {showCreator ? ` by ${share.createdBy.name}` : ''}
              </span>
            </p>
          </div>
          {share.status === 'active' ? <RevokeShareButton share={share} /> : null}
        </li>
      ))}
    </ul>
  );
}

function ExistingLinks({ open, showCreator }: { open: boolean; showCreator: boolean }) {
  const shares = useSummaryShares(open);
  if (shares.data) return <ShareLinkList shares={shares.data} showCreator={showCreator} />;
  if (shares.isError) {
    return (
      <p className="text-sm">
        <span className="font-medium">Error loading the links:</span> <span className="text-muted-foreground">{shares.error.message}</span>
      </p>
    );
  }
  return <Spinner label="Loading the share links" />;
}

/**
 * Share (spec part 2 "AI Summary page"): a read-only link to this summary — the period and client
 * chosen on the page, a relative period frozen now — that opens without signing in until it
 * expires (1, 7 or 30 days) or is revoked; the links made so far, each revocable.
 */
export function ShareDialog({ query, periodText, showCreator }: { query: InsightsQuery; periodText: string; showCreator: boolean }) {
  const create = useCreateSummaryShare();
  const [open, setOpen] = useState(false);
  const [expiresInDays, setExpiresInDays] = useState<ExpiryDays>(DEFAULT_SHARE_EXPIRY_DAYS);
  const [created, setCreated] = useState<CreatedSummaryShare | null>(null);
  const headingId = useId();

  const reset = () => {
    setExpiresInDays(DEFAULT_SHARE_EXPIRY_DAYS);
    setCreated(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { ...query, expiresInDays },
      {
        onSuccess: (result) => {
          setCreated(result);
          toast.success('Share link created', { description: 'Copy it now: it is shown once.' });
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The link could not be created.') }),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Share2 aria-hidden />
          Share
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Share this summary</DialogTitle>
          <DialogDescription>
            A read-only link to this AI Summary ({periodText}). Anyone with it sees the page without signing in, until it expires or you revoke it. A relative period is frozen when the
            link is made.
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="grid min-w-0 gap-3">
            <NewShareLink created={created} />
            <div>
              <Button type="button" variant="outline" onClick={() => setCreated(null)}>
                <Plus aria-hidden />
                Create another link
              </Button>
            </div>
          </div>
        ) : (
          <form className="grid min-w-0 gap-4" onSubmit={submit} noValidate>
            <ShareExpiryField value={expiresInDays} onChange={setExpiresInDays} />
            <div>
              <Button type="submit" disabled={create.isPending}>
                <Link2 aria-hidden />
                Create link
              </Button>
            </div>
          </form>
        )}
        <section aria-labelledby={headingId} className="grid min-w-0 gap-2 border-t pt-4">
          <h3 id={headingId} className="text-sm font-medium">
            {showCreator ? 'Share links' : 'Your share links'}
          </h3>
          <ExistingLinks open={open} showCreator={showCreator} />
        </section>
      </DialogContent>
    </Dialog>
  );
}
