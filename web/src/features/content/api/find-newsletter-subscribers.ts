import { queryOptions, useQuery } from '@tanstack/react-query';
import { newsletterSubscribersResponse } from '@common/api/contact';
import { apiRequest } from '@/lib/api-client';
import { newsletterKeys } from './keys';

/** The newsletter's subscribers (pending, subscribed, unsubscribed) with a count per status. */
export function findNewsletterSubscribers(signal?: AbortSignal) {
  return apiRequest('/api/v1/newsletter-subscribers', newsletterSubscribersResponse, { signal });
}

export function newsletterSubscribersQueryOptions() {
  return queryOptions({ queryKey: newsletterKeys.list(), queryFn: ({ signal }) => findNewsletterSubscribers(signal), staleTime: 30_000 });
}

export function useNewsletterSubscribers() {
  return useQuery(newsletterSubscribersQueryOptions());
}
