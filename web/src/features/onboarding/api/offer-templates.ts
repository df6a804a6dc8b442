import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { offerTemplatesResponse, offerTemplateView } from '@common/api/onboarding';
import type { OfferId } from '@common/api/offers';
import { findTemplatesResponse } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export function findOfferTemplates(signal?: AbortSignal) {
  return apiRequest('/api/v1/onboarding/offer-templates', offerTemplatesResponse, { signal }).then((r) => r.offers);
}

export function useOfferTemplates() {
  return useQuery(queryOptions({ queryKey: onboardingKeys.offerTemplates(), queryFn: ({ signal }) => findOfferTemplates(signal), staleTime: 30_000 }));
}

/** The admin templates an offer can be mapped to (GET /api/v1/templates). */
export function findTemplates(signal?: AbortSignal) {
  return apiRequest('/api/v1/templates', findTemplatesResponse, { signal }).then((r) => r.templates);
}

export function useTemplates() {
  return useQuery(queryOptions({ queryKey: onboardingKeys.templates(), queryFn: ({ signal }) => findTemplates(signal), staleTime: 30_000 }));
}

export function setOfferTemplate({ offerId, templateId }: { offerId: OfferId; templateId: string | null }) {
  return apiRequest(`/api/v1/onboarding/offer-templates/${encodeURIComponent(offerId)}`, offerTemplateView, { method: 'PUT', body: { templateId } });
}

export function useSetOfferTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOfferTemplate,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: onboardingKeys.offerTemplates() }),
  });
}
