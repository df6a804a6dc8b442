import { WEBHOOK_URL_REQUIRED, type N8nWebhookTestResult } from '@common/api/n8n';

/** Spec part 1 §5: the Test button with an empty URL says so instead of calling anything. */
export function webhookUrlProblem(url: string): string | null {
  return url.trim() === '' ? WEBHOOK_URL_REQUIRED : null;
}

/** The toast that replaces 'Testing Webhook': the spec's success title, or the real failure. */
export function webhookTestToast(result: N8nWebhookTestResult): { ok: boolean; title: string; description: string } {
  const timing = `${result.durationMs} ms`;
  if (result.ok) return { ok: true, title: result.message, description: `HTTP ${result.status ?? '?'} in ${timing}` };
  return { ok: false, title: 'Webhook Test Failed', description: result.message };
}

/** The answer's body, pretty-printed when it is JSON (an excerpt may be cut: then as it came). */
export function formatBodyExcerpt(body: string): string {
  const trimmed = body.trim();
  if (trimmed === '') return '';
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return body;
  }
}
