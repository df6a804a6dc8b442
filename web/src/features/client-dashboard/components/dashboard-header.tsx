import { Building2, CalendarDays, Pause, Play, ShieldOff, Sparkles } from 'lucide-react';
import { toast } from 'sonner';
import type { ClientDashboardView } from '@common/api/client-dashboard';
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
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { useSetAutomationPaused } from '../api/set-automation-paused';
import { NO_PLAN_BADGE, SUBSCRIPTION_BADGE } from '../lib/dashboard';

/** Pause Automation (after a confirmation: customers notice) or Resume Automation. */
export function PauseToggle({ clientId, companyName, paused }: { clientId: string; companyName: string; paused: boolean }) {
  const mutation = useSetAutomationPaused();
  const flip = (next: boolean) =>
    mutation.mutate(
      { clientId, paused: next },
      {
        onSuccess: () =>
          toast.success(next ? 'Automation Paused' : 'Automation Resumed', {
            description: next
              ? `The AI agent of ${companyName} no longer answers: customers get the away message and your team takes over.`
              : `The AI agent of ${companyName} answers customers again.`,
          }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The automation could not be changed. Please try again.') }),
      },
    );

  if (paused) {
    return (
      <Button onClick={() => flip(false)} disabled={mutation.isPending}>
        <Play aria-hidden />
        Resume Automation
      </Button>
    );
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={mutation.isPending}>
          <Pause aria-hidden />
          Pause Automation
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Pause the automation of {companyName}?</AlertDialogTitle>
          <AlertDialogDescription>
            Until you resume it, the AI agent does not answer: customers who write get the away message and their conversations are handed to your team.
            Automations started by events do not run. Administrators are told.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => flip(true)}>Pause Automation</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The business, its template, since when it is active, the badge and Pause/Resume Automation. */
export function DashboardHeader({ view }: { view: ClientDashboardView }) {
  const { client, plan } = view;
  const paused = client.automationPausedAt !== null;
  const badge = view.subscriptionStatus ? SUBSCRIPTION_BADGE[view.subscriptionStatus] : null;
  return (
    <Card className="gap-4 py-5">
      <CardContent className="grid gap-4 px-5">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid min-w-0 gap-1">
            <h2 className="flex min-w-0 items-center gap-2 text-xl font-semibold">
              <Building2 aria-hidden className="size-5 shrink-0 text-primary" />
              <span className="truncate">{client.companyName}</span>
            </h2>
            <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
              <span className="flex items-center gap-1.5">
                <Sparkles aria-hidden className="size-4" />
                {plan ? plan.offerName : 'No template chosen yet'}
              </span>
              <span className="flex items-center gap-1.5">
                <CalendarDays aria-hidden className="size-4" />
                {plan ? `Active since ${formatDate(plan.activeSince)}` : `Client since ${formatDate(client.createdAt)}`}
              </span>
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={badge?.variant ?? 'secondary'} data-testid="subscription-badge">
              {badge?.label ?? NO_PLAN_BADGE}
            </Badge>
            {client.status === 'inactive' ? <Badge variant="destructive">Inactive</Badge> : null}
            <PauseToggle clientId={client.id} companyName={client.companyName} paused={paused} />
          </div>
        </div>
        {paused ? (
          <p className="rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm" role="status">
            Automation paused {client.automationPausedBy ? `by ${client.automationPausedBy} ` : ''}on {formatDateTime(client.automationPausedAt)}. The AI agent does
            not answer and event-triggered automations do not run until it is resumed.
          </p>
        ) : null}
        {client.status === 'inactive' ? (
          <Alert variant="destructive">
            <ShieldOff aria-hidden />
            <AlertTitle>This business is deactivated</AlertTitle>
            <AlertDescription>Its channels accept no messages and its users cannot sign in until an administrator reactivates it.</AlertDescription>
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}
