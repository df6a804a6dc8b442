/** Signing out, shared by the signed-in shell and the public top navigation. */
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiSend, errorMessage } from './api-client';
import { queryClient } from './query-client';
import { markSignedOut } from './session';

export function signOut(): Promise<void> {
  return apiSend('/api/v1/auth/sign-out', { method: 'POST' });
}

export function useSignOut() {
  return useMutation({
    mutationFn: signOut,
    retry: false,
    onSuccess: () => {
      markSignedOut();
      queryClient.clear();
      toast.success('Signed out');
    },
    onError: (error) => {
      toast.error('Sign Out Failed', { description: errorMessage(error, 'Please try again.') });
    },
  });
}
