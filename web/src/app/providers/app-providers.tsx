import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TooltipProvider } from '@/components/ui/tooltip';
import { queryClient } from '@/lib/query-client';
import { useRequestToaster } from '@/lib/toaster-gate';

/** What the forms and the signed-in app need (not the landing page): queries, tooltips, toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  useRequestToaster();
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>{children}</TooltipProvider>
    </QueryClientProvider>
  );
}
