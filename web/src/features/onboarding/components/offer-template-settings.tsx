import { LayoutTemplate } from 'lucide-react';
import { toast } from 'sonner';
import { findOffer } from '@common/api/offers';
import type { OfferTemplateView } from '@common/api/onboarding';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useOfferTemplates, useSetOfferTemplate, useTemplates } from '../api/offer-templates';

const NONE = 'none';

function OfferRow({ offer, templates }: { offer: OfferTemplateView; templates: { id: string; name: string; status: string }[] }) {
  const save = useSetOfferTemplate();
  const id = `offer-template-${offer.offerId}`;
  const current = offer.template?.id ?? NONE;
  return (
    <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)] sm:items-center">
      <Label htmlFor={id} className="grid gap-0.5">
        <span>{offer.offerName}</span>
        <span className="text-xs font-normal text-muted-foreground">{findOffer(offer.offerId)?.priceText}</span>
      </Label>
      <Select
        value={current}
        disabled={save.isPending}
        onValueChange={(value) =>
          save.mutate(
            { offerId: offer.offerId, templateId: value === NONE ? null : value },
            {
              onSuccess: (saved) =>
                toast.success('Template Mapping Saved', {
                  description: saved.template ? `${saved.offerName} applies “${saved.template.name}” on approval.` : `${saved.offerName} applies no template on approval.`,
                }),
              onError: (error) => toast.error('Error', { description: errorMessage(error, 'The mapping could not be saved.') }),
            },
          )
        }
      >
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NONE}>No template</SelectItem>
          {templates.map((template) => (
            <SelectItem key={template.id} value={template.id}>
              {template.name}
              {template.status === 'active' ? '' : ` (${template.status})`}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** Which admin template each offer applies when a request for it is approved (none: the approval says so). */
export function OfferTemplateSettings() {
  const mappings = useOfferTemplates();
  const templates = useTemplates();
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LayoutTemplate aria-hidden className="size-4 text-primary" />
          Templates applied on approval
        </CardTitle>
        <CardDescription>
          Approving a request assigns its offer&apos;s template to the new client, which creates the client&apos;s automation from it. Templates are managed on the
          Templates page.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mappings.isPending || templates.isPending ? (
          <Skeleton className="h-28" />
        ) : mappings.isError || templates.isError ? (
          <p className="text-sm text-destructive">{errorMessage(mappings.error ?? templates.error, 'The template mapping could not be loaded.')}</p>
        ) : (
          mappings.data.map((offer) => <OfferRow key={offer.offerId} offer={offer} templates={templates.data} />)
        )}
      </CardContent>
    </Card>
  );
}
