import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { ReadinessView } from '@common/api/readiness';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useReadiness } from '../api/get-readiness';
import { useSendTestEmail } from '../api/send-test-email';
import { ReadinessReport } from './readiness-report';

export const CHECK_FAILED = 'Failed to check production readiness';
/** After a test e-mail, the page checks again until the e-mail item settles, for at most this long. */
const WATCH_TEST_EMAIL_MS = 30_000;

/** What the screen shows for a query's state: the report, the error with Try Again, or the spinner. */
export function ReadinessBody({
  view,
  error,
  updating,
  onRetry,
  onSendTestEmail,
  sendingTestEmail,
}: {
  view: ReadinessView | undefined;
  error: Error | null;
  updating: boolean;
  onRetry: () => void;
  onSendTestEmail: () => void;
  sendingTestEmail: boolean;
}) {
  if (view) {
    return (
      <div aria-busy={updating} className={cn('min-w-0 transition-opacity', updating && 'opacity-60')}>
        <ReadinessReport view={view} onSendTestEmail={onSendTestEmail} sendingTestEmail={sendingTestEmail} />
      </div>
    );
  }
  if (error) {
    return (
      <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
        <p className="text-sm">
          <span className="font-medium">Error checking production readiness:</span> <span className="text-muted-foreground">{error.message}</span>
        </p>
        <Button variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid justify-items-center gap-3 py-16 text-center">
      <Spinner label="Checking the installation" />
      <p className="text-sm text-muted-foreground">Checking the installation…</p>
    </div>
  );
}

/**
 * /admin/production-status and /production-readiness (admins; spec part 2 "Production
 * readiness"): every item checked against this installation when the page opens and on Re-check.
 */
export function ReadinessScreen() {
  const [watching, setWatching] = useState(false);
  const readiness = useReadiness({ watchTestEmail: watching });
  const sendTestEmail = useSendTestEmail();
  const { data, isError, errorUpdatedAt } = readiness;

  useEffect(() => {
    if (isError) toast.error('Error', { description: CHECK_FAILED });
  }, [isError, errorUpdatedAt]);

  // The watch ends after a while even if the SMTP server never answers.
  useEffect(() => {
    if (!watching) return undefined;
    const timer = setTimeout(() => setWatching(false), WATCH_TEST_EMAIL_MS);
    return () => clearTimeout(timer);
  }, [watching]);

  const recheck = () => {
    void readiness.refetch().then((result) => {
      if (result.isSuccess) toast.success('Re-checked', { description: `Score ${result.data.score}%` });
    });
  };

  const onSendTestEmail = () => {
    sendTestEmail.mutate(
      {},
      {
        onSuccess: (sent) => {
          toast.success('Test e-mail queued', { description: `To ${sent.to}. This page checks again until the SMTP server has accepted it.` });
          setWatching(true);
          void readiness.refetch();
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to send the test e-mail') }),
      },
    );
  };

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid="readiness-checked-at">
          {data ? `Last checked ${formatDateTime(data.checkedAt)}` : 'Checking…'}
        </p>
        <Button variant="outline" onClick={recheck} disabled={readiness.isFetching}>
          <RefreshCw aria-hidden className={cn(readiness.isFetching && 'animate-spin')} />
          Re-check
        </Button>
      </div>
      <ReadinessBody
        view={data}
        error={readiness.error}
        updating={readiness.isFetching && data !== undefined}
        onRetry={() => void readiness.refetch()}
        onSendTestEmail={onSendTestEmail}
        sendingTestEmail={sendTestEmail.isPending}
      />
    </div>
  );
}
