import { describe, expect, it } from 'vitest';
import { WEBHOOK_URL_REQUIRED, type N8nWebhookTestResult } from '@common/api/n8n';
import { formatBodyExcerpt, webhookTestToast, webhookUrlProblem } from './webhook-test';

const answered: N8nWebhookTestResult = {
  ok: true,
  status: 200,
  durationMs: 42,
  bodyExcerpt: '{"execution_id":"17"}',
  contentType: 'application/json',
  message: 'Webhook Test Successful',
};

describe('the webhook Test', () => {
  it("refuses an empty or blank URL with the spec's text, before any call", () => {
    expect(webhookUrlProblem('')).toBe('Please enter a webhook URL first.');
    expect(webhookUrlProblem('   ')).toBe(WEBHOOK_URL_REQUIRED);
    expect(webhookUrlProblem('http://n8n.test/webhook/x')).toBeNull();
  });

  it("replaces 'Testing Webhook' with the spec's success and the real status and time", () => {
    expect(webhookTestToast(answered)).toEqual({ ok: true, title: 'Webhook Test Successful', description: 'HTTP 200 in 42 ms' });
  });

  it('replaces it with the real failure: the answer, or why none came', () => {
    const notRegistered = { ...answered, ok: false, status: 404, message: 'The webhook answered 404: The requested webhook "POST x" is not registered.' };
    expect(webhookTestToast(notRegistered)).toEqual({ ok: false, title: 'Webhook Test Failed', description: notRegistered.message });
    const refused = { ...answered, ok: false, status: null, bodyExcerpt: '', message: 'Refused: the address resolves to loopback (127.0.0.1)' };
    expect(webhookTestToast(refused).description).toBe('Refused: the address resolves to loopback (127.0.0.1)');
  });

  it('pretty-prints a JSON answer and leaves anything else (a cut excerpt, text) as it came', () => {
    expect(formatBodyExcerpt('{"execution_id":"17"}')).toBe('{\n  "execution_id": "17"\n}');
    expect(formatBodyExcerpt('{"cut": "in the mid')).toBe('{"cut": "in the mid');
    expect(formatBodyExcerpt('Workflow was started')).toBe('Workflow was started');
    expect(formatBodyExcerpt('  ')).toBe('');
  });
});
