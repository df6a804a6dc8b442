import { CircleAlert, GraduationCap, Info, AlertTriangle } from 'lucide-react';
import { accuracyNote } from '@common/agents/accuracy-note';
import type { TrainingView } from '@common/api/agents';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { isTrainingActive, metricsText, progressPercent, trainingSummary, type TrainingTone } from '../lib/training';

const BADGE_VARIANT: Record<TrainingTone, 'success' | 'warning' | 'destructive' | 'secondary'> = {
  live: 'success',
  busy: 'warning',
  failed: 'destructive',
  none: 'secondary',
};

export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div className="h-full rounded-full bg-primary transition-[width] duration-500" style={{ width: `${value}%` }} />
    </div>
  );
}

/** A badge for tables: Live (since when, on hover), Training 40%, Training failed, Not trained. */
export function TrainingBadge({ training }: { training: TrainingView }) {
  const summary = trainingSummary(training, (iso) => formatDateTime(iso));
  return (
    <Badge variant={BADGE_VARIANT[summary.tone]} title={summary.text}>
      {summary.label}
    </Badge>
  );
}

/** The knowledge base's training: progress while it trains, since when the live version answers, its metrics, or the error. */
export function TrainingStatusCard({ training }: { training: TrainingView }) {
  const summary = trainingSummary(training, (iso) => formatDateTime(iso));
  const metrics = metricsText(training.metrics);
  // What the accuracy was measured on, and a warning when the knowledge base is too small to estimate it.
  const note = training.metrics ? accuracyNote(training.metrics) : null;
  const busy = isTrainingActive(training);
  return (
    <Card aria-labelledby="training-status-title" role="region">
      <CardHeader>
        <CardTitle id="training-status-title" className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <GraduationCap aria-hidden className="size-4 text-primary" />
            Training
          </span>
          <Badge variant={BADGE_VARIANT[summary.tone]}>{summary.label}</Badge>
        </CardTitle>
        <CardDescription>Every change to the knowledge base trains a new version in the background.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {busy ? <ProgressBar value={progressPercent(training)} label="Training progress" /> : null}
        {training.status === 'failed' ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden />
            <AlertTitle>Training failed</AlertTitle>
            <AlertDescription>{training.error ?? 'The new version could not be trained.'}</AlertDescription>
          </Alert>
        ) : null}
        <p data-testid="training-text">
          {training.liveAt !== null ? (
            <>
              Live since <time dateTime={training.liveAt}>{formatDateTime(training.liveAt)}</time>{' '}
              <span className="text-muted-foreground">({formatRelative(training.liveAt)})</span>
            </>
          ) : training.status === 'failed' ? (
            'No version is live yet.'
          ) : (
            summary.text
          )}
        </p>
        <dl className="grid grid-cols-2 gap-2 text-xs">
          <div className="flex flex-col-reverse rounded-md bg-muted/40 p-2">
            <dt className="text-muted-foreground">Live version</dt>
            <dd className="font-semibold tabular-nums">{training.liveVersion ?? '—'}</dd>
          </div>
          <div className="flex flex-col-reverse rounded-md bg-muted/40 p-2">
            <dt className="text-muted-foreground">Knowledge version</dt>
            <dd className="font-semibold tabular-nums">{training.knowledgeVersion}</dd>
          </div>
        </dl>
        {metrics ? <p className="text-muted-foreground">{metrics}</p> : null}
        {note ? (
          <p className={cn('flex items-start gap-1.5 text-xs', note.tooSmall ? 'text-warning' : 'text-muted-foreground')} data-testid="accuracy-note">
            {note.tooSmall ? <AlertTriangle aria-hidden className="mt-0.5 size-3.5 shrink-0" /> : <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />}
            <span className="min-w-0">{note.text}</span>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
