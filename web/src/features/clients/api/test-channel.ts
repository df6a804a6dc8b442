import { useMutation } from '@tanstack/react-query';
import { channelTestResult } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';

/** Checks the stored credentials against the platform. */
export function testChannel(channelId: string) {
  return apiRequest(`/api/v1/channels/${encodeURIComponent(channelId)}/test`, channelTestResult, { method: 'POST' });
}

export function useTestChannel() {
  return useMutation({ mutationFn: testChannel, retry: false });
}
