import { useMutation } from '@tanstack/react-query';
import { n8nWebhookTestResult, type N8nWebhookTestInput } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';

/** The server POSTs the payload template to the URL and answers what came back (or why nothing did). */
export function testWebhook(input: N8nWebhookTestInput) {
  return apiRequest('/api/v1/n8n/webhook-test', n8nWebhookTestResult, { method: 'POST', body: input });
}

export function useTestWebhook() {
  return useMutation({ mutationFn: testWebhook, retry: false });
}
