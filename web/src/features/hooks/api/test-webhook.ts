import { useMutation } from '@tanstack/react-query';
import { webhookTestResult, type WebhookTestInput } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';

/** Spec §7 "Webhook test", sent by the server (through its guarded client) so the answer can be read. */
export function testWebhook(input: WebhookTestInput) {
  return apiRequest('/api/v1/webhooks/test', webhookTestResult, { method: 'POST', body: input });
}

export function useTestWebhook() {
  return useMutation({ mutationFn: testWebhook, retry: false });
}
