import { useState } from 'react';
import { toast } from 'sonner';
import { dayLabel } from '@common/api/billing';
import { findOffer, OFFER_IDS, TEMPLATE_OFFERS, type OfferId } from '@common/api/offers';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useClientBilling } from '../api/get-client-billing';
import { useSetPlan } from '../api/set-plan';

const isOfferId = (value: string): value is OfferId => (OFFER_IDS as readonly string[]).includes(value);

/** The chosen client's plan (admins): start one, or change it from the next invoice on. */
export function ClientPlan({ clientId, clientName }: { clientId: string; clientName: string }) {
  const billing = useClientBilling(clientId);
  const setPlan = useSetPlan();
  const subscription = billing.data?.subscription ?? null;
  const [choice, setChoice] = useState<OfferId | ''>('');
  const offerId = choice || subscription?.offerId || '';
  const unchanged = subscription !== null && offerId === subscription.offerId;

  const save = () => {
    if (!isOfferId(offerId)) return;
    setPlan.mutate(
      { clientId, offerId },
      {
        onSuccess: (saved) => {
          setChoice('');
          toast.success(subscription ? 'Plan Changed' : 'Plan Started', {
            description: subscription
              ? `${clientName} moves to ${saved.offerName} (${saved.priceText}) from the next invoice.`
              : `${clientName} is on ${saved.offerName} (${saved.priceText}); its first invoice covers the rest of this month.`,
          });
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The plan could not be saved. Please try again.') }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 truncate">Plan of {clientName}</span>
          {subscription?.pastDue ? <Badge variant="destructive">Past Due</Badge> : null}
        </CardTitle>
        <CardDescription>
          {billing.isPending
            ? 'Loading…'
            : billing.isError
              ? errorMessage(billing.error, 'The plan could not be loaded.')
              : subscription
                ? `${subscription.offerName}, ${subscription.priceText}, active since ${formatDate(subscription.activeSince)}. Next payment: ${subscription.nextPaymentDate ? dayLabel(subscription.nextPaymentDate) : 'none (the client is deactivated)'}.`
                : 'No subscription: this client is not invoiced. Starting a plan issues its first invoice at once, for the rest of this month.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {billing.isPending ? (
          <Skeleton className="h-9 w-full max-w-sm" />
        ) : (
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid min-w-0 flex-1 gap-1.5 sm:max-w-sm">
              <Label htmlFor="plan-offer">Plan</Label>
              <Select value={offerId} onValueChange={(value) => setChoice(isOfferId(value) ? value : '')}>
                <SelectTrigger id="plan-offer" className="w-full">
                  <SelectValue placeholder="Choose a plan" />
                </SelectTrigger>
                <SelectContent>
                  {TEMPLATE_OFFERS.map((offer) => (
                    <SelectItem key={offer.id} value={offer.id}>
                      {offer.name} · {offer.priceText}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <Button onClick={save} disabled={!isOfferId(offerId) || unchanged || setPlan.isPending || billing.isError}>
              {setPlan.isPending ? 'Saving…' : subscription ? 'Change plan' : 'Start plan'}
            </Button>
          </div>
        )}
        {subscription && !unchanged && isOfferId(offerId) ? (
          <p className="mt-2 text-sm text-muted-foreground">
            From the next invoice: {findOffer(offerId)?.priceText}. Invoices already issued keep their amounts.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
