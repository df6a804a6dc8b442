import { zodResolver } from '@hookform/resolvers/zod';
import { Check, Inbox, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import {
  declineRequestInput,
  INDUSTRY_LABELS,
  type AccountOutcome,
  type ApprovalOutcome,
  type OnboardingRequestView,
  type OfferTemplateView,
} from '@common/api/onboarding';
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
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useApproveRequest, useDeclineRequest } from '../api/decide-request';
import { type RequestFilter, useOnboardingRequests } from '../api/find-onboarding-requests';
import { useOfferTemplates } from '../api/offer-templates';
import { OfferTemplateSettings } from './offer-template-settings';

const FILTERS: { value: RequestFilter; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'declined', label: 'Declined' },
  { value: 'all', label: 'All' },
];

const STATUS_BADGE: Record<OnboardingRequestView['status'], { label: string; variant: 'warning' | 'success' | 'secondary' }> = {
  pending: { label: 'Pending', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  declined: { label: 'Declined', variant: 'secondary' },
};

const ACCOUNT_TEXT: Record<AccountOutcome, string> = {
  linked: "The applicant's account was linked to the business.",
  invited: 'The applicant was invited by e-mail to create an account.',
  'not-linked': "No account was linked: the applicant's address belongs to an account that cannot join.",
};

function ApproveButton({ request, mapping, onApproved }: { request: OnboardingRequestView; mapping: OfferTemplateView | undefined; onApproved: (outcome: ApprovalOutcome) => void }) {
  const approve = useApproveRequest();
  const template = mapping?.template ?? null;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button size="sm" disabled={approve.isPending}>
          <Check aria-hidden />
          {approve.isPending ? 'Approving...' : 'Approve'}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Approve {request.businessName}?</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">
              <p>In one step, Parley:</p>
              <ul className="grid list-disc gap-1 pl-5">
                <li>creates the client {request.businessName} from the form;</li>
                <li>links the applicant&apos;s account to it, or e-mails {request.email} an invitation to create one;</li>
                <li>
                  {template
                    ? `applies the template “${template.name}” (mapped to ${request.offerName}), which creates the client's automation;`
                    : `applies no template: none is mapped to ${request.offerName} (map one below first if you want one);`}
                </li>
                <li>sets up its AI agent with the default business hours (Mon–Fri 9:00–18:00, Sat 10:00–16:00, in {request.timeZone});</li>
                <li>e-mails the applicant.</li>
              </ul>
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() =>
              approve.mutate(request.id, {
                onSuccess: (outcome) => {
                  toast.success('Request Approved', { description: `${outcome.request.businessName} is now a client.` });
                  onApproved(outcome);
                },
                onError: (error) => toast.error(isApiError(error) && error.status === 409 ? 'Already Decided' : 'Approval Failed', { description: errorMessage(error, 'The request could not be approved.') }),
              })
            }
          >
            Approve
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

type DeclineForm = z.input<typeof declineRequestInput>;

function DeclineButton({ request }: { request: OnboardingRequestView }) {
  const [open, setOpen] = useState(false);
  const decline = useDeclineRequest();
  const form = useForm<DeclineForm, unknown, z.output<typeof declineRequestInput>>({ resolver: zodResolver(declineRequestInput), defaultValues: { reason: '' } });
  const error = form.formState.errors.reason?.message;
  const onSubmit = form.handleSubmit((values) => {
    decline.mutate(
      { id: request.id, ...values },
      {
        onSuccess: () => {
          toast.success('Request Declined', { description: `We e-mailed the reason to ${request.email}.` });
          setOpen(false);
          form.reset();
        },
        onError: (failure) => {
          const message = isApiError(failure) ? failure.fields?.['reason'] : undefined;
          if (message) form.setError('reason', { type: 'server', message });
          toast.error(isApiError(failure) && failure.status === 409 ? 'Already Decided' : 'Decline Failed', { description: errorMessage(failure, 'The request could not be declined.') });
        },
      },
    );
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <X aria-hidden />
          Decline
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Decline {request.businessName}?</DialogTitle>
            <DialogDescription>The reason is e-mailed to {request.contactName} ({request.email}).</DialogDescription>
          </DialogHeader>
          <FormField id={`decline-${request.id}`} label="Reason" error={error}>
            <Textarea {...fieldA11y(`decline-${request.id}`, error)} rows={4} {...form.register('reason')} />
          </FormField>
          <DialogFooter>
            <Button type="submit" variant="destructive" disabled={decline.isPending}>
              {decline.isPending ? 'Declining...' : 'Decline Request'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RequestCard({ request, mapping, onApproved }: { request: OnboardingRequestView; mapping: OfferTemplateView | undefined; onApproved: (outcome: ApprovalOutcome) => void }) {
  const badge = STATUS_BADGE[request.status];
  const rows: [string, ReactNode][] = [
    ['Contact', request.contactName],
    [
      'Email',
      <a key="email" href={`mailto:${request.email}`} className="break-all text-primary hover:underline">
        {request.email}
      </a>,
    ],
    [
      'Phone',
      <a key="phone" href={`tel:${request.phone.replace(/[^\d+]/gu, '')}`} className="text-primary hover:underline">
        {request.phone}
      </a>,
    ],
    ['Industry', INDUSTRY_LABELS[request.industry]],
    ['Account', request.applicant ? `Sent signed in as ${request.applicant.name} (${request.applicant.email})` : 'Sent signed out'],
    ['Sent', formatDateTime(request.createdAt)],
  ];
  if (request.status === 'approved') {
    rows.push(
      ['Client', request.client?.name ?? 'Deleted since'],
      ['Template', request.template ? request.template.name : 'No template was applied'],
      ['Applicant account', request.accountOutcome ? ACCOUNT_TEXT[request.accountOutcome] : '—'],
    );
  }
  if (request.status !== 'pending') rows.push([request.status === 'approved' ? 'Approved' : 'Declined', `${formatDateTime(request.decidedAt)}${request.decidedBy ? ` by ${request.decidedBy.name}` : ''}`]);
  if (request.status === 'declined') rows.push(['Reason', request.declineReason ?? '—']);

  return (
    <li>
      <Card className="gap-3 py-4">
        <CardContent className="grid gap-3 px-4">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="truncate font-semibold">{request.businessName}</h3>
              <p className="text-sm text-muted-foreground">
                {request.offerName} · {request.priceText}
              </p>
            </div>
            <Badge variant={badge.variant}>{badge.label}</Badge>
          </div>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="break-words whitespace-pre-line">{value}</dd>
              </div>
            ))}
          </dl>
          {request.status === 'pending' ? (
            <div className="flex flex-wrap justify-end gap-2">
              <DeclineButton request={request} />
              <ApproveButton request={request} mapping={mapping} onApproved={onApproved} />
            </div>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

/** What an approval did, said plainly (the template, the account, the subscription). */
function ApprovalSummary({ outcome, onDismiss }: { outcome: ApprovalOutcome; onDismiss: () => void }) {
  return (
    <Alert>
      <Check aria-hidden />
      <AlertTitle>{outcome.request.businessName} is now a client</AlertTitle>
      <AlertDescription>
        <ul className="grid list-disc gap-1 pl-5">
          <li>{outcome.account.message}</li>
          <li>
            {outcome.templateApplied
              ? `The template “${outcome.templateApplied.name}” was applied: the client has its automation.`
              : `No template was applied: none is mapped to ${outcome.request.offerName}. Assign one from the Templates page when it is ready.`}
          </li>
          <li>Its AI agent has the default business hours (Mon–Fri 9:00–18:00, Sat 10:00–16:00). It stays off until switched on.</li>
          <li>{outcome.subscriptionStarted ? `The ${outcome.request.offerName} subscription started.` : 'No subscription was started: billing is not available on this server.'}</li>
        </ul>
        <Button variant="outline" size="sm" className="mt-2" onClick={onDismiss}>
          Dismiss
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/**
 * The Requests tab of /admin/clients (issue 17 §1): onboarding requests by status with the form's
 * data; Approve (one step: client, account, template, agent) or Decline with a reason; which
 * template each offer applies.
 */
export function OnboardingRequests() {
  const [filter, setFilter] = useState<RequestFilter>('pending');
  const requests = useOnboardingRequests(filter);
  const mappings = useOfferTemplates();
  const [outcome, setOutcome] = useState<ApprovalOutcome | null>(null);
  const counts = requests.data?.counts;

  return (
    <div className="grid gap-4">
      {outcome ? <ApprovalSummary outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
      <Tabs value={filter} onValueChange={(value) => setFilter(value as RequestFilter)}>
        <TabsList aria-label="Requests by status">
          {FILTERS.map((f) => (
            <TabsTrigger key={f.value} value={f.value}>
              {f.label}
              {counts && f.value !== 'all' ? <span className="tabular-nums text-muted-foreground">({counts[f.value]})</span> : null}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {requests.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : requests.isError ? (
        <LoadError message={errorMessage(requests.error, 'The requests could not be loaded.')} onRetry={() => void requests.refetch()} />
      ) : requests.data.requests.length === 0 ? (
        <EmptyState icon={Inbox} title={filter === 'pending' ? 'No pending requests' : 'No requests'}>
          Businesses ask to get started from the Get Started page (/client-signup); their requests appear here.
        </EmptyState>
      ) : (
        <ul aria-label="Onboarding requests" className="grid gap-3 xl:grid-cols-2">
          {requests.data.requests.map((request) => (
            <RequestCard
              key={request.id}
              request={request}
              mapping={mappings.data?.find((m) => m.offerId === request.offerId)}
              onApproved={(approved) => {
                setOutcome(approved);
                window.scrollTo({ top: 0, behavior: 'smooth' });
              }}
            />
          ))}
        </ul>
      )}
      <OfferTemplateSettings />
    </div>
  );
}

/** The number of pending requests, for the tab that leads to them (nothing while loading or at zero). */
export function PendingRequestsCount() {
  const requests = useOnboardingRequests('pending');
  const pending = requests.data?.counts.pending ?? 0;
  if (pending === 0) return null;
  return (
    <Badge variant="warning" className="tabular-nums" aria-label={`${pending} pending`}>
      {pending}
    </Badge>
  );
}
