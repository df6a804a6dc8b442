/** Admin Settings → Security: the two-factor requirement and the session lifetime. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { securitySettings, type SecuritySettings } from '@common/api/security';
import { apiRequest } from '@/lib/api-client';
import { settingsKeys } from './keys';

export function getSecuritySettings(signal?: AbortSignal) {
  return apiRequest('/api/v1/admin/security/settings', securitySettings, { signal });
}

export function securitySettingsQueryOptions() {
  return queryOptions({ queryKey: settingsKeys.securitySettings, queryFn: ({ signal }) => getSecuritySettings(signal) });
}

export function useSecuritySettings() {
  return useQuery(securitySettingsQueryOptions());
}

export function updateSecuritySettings(values: SecuritySettings) {
  return apiRequest('/api/v1/admin/security/settings', securitySettings, { method: 'PUT', body: values });
}

export function useUpdateSecuritySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSecuritySettings,
    retry: false,
    onSuccess: async (saved) => {
      queryClient.setQueryData(settingsKeys.securitySettings, saved);
      // The change is in the audit log, and a shorter lifetime changed the sessions' expiry.
      await queryClient.invalidateQueries({ queryKey: settingsKeys.security, predicate: (query) => query.queryKey[2] !== 'settings' });
    },
  });
}
