import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { n8nPayloadTemplate, type N8nWebhookTestResult } from '@common/api/n8n';
import { PayloadTemplateView, WebhookTestResultView } from './webhook-test-card';

const URL = 'http://127.0.0.1:5678/webhook/parley-starter';
const text = (html: string) => html.replace(/<[^>]+>/gu, ' ').replace(/&quot;/gu, '"').replace(/&#x27;/gu, "'").replace(/\s+/gu, ' ');

describe('the webhook test result', () => {
  it('shows the real answer: status, time, content type and the body, pretty-printed', () => {
    const result: N8nWebhookTestResult = {
      ok: true,
      status: 200,
      durationMs: 37,
      bodyExcerpt: '{"execution_id":"12"}',
      contentType: 'application/json; charset=utf-8',
      message: 'Webhook Test Successful',
    };
    const html = renderToStaticMarkup(<WebhookTestResultView url={URL} result={result} />);
    const shown = text(html);
    expect(shown).toContain('Webhook Test Successful');
    expect(shown).toContain('HTTP 200');
    expect(shown).toContain('37 ms');
    expect(shown).toContain('application/json; charset=utf-8');
    expect(shown).toContain(URL);
    expect(html).toContain('{\n  &quot;execution_id&quot;: &quot;12&quot;\n}');
  });

  it("shows a refusal as the answer's status and n8n's message", () => {
    const html = renderToStaticMarkup(
      <WebhookTestResultView
        url={URL}
        result={{ ok: false, status: 404, durationMs: 5, bodyExcerpt: '{"code":404,"message":"not registered"}', contentType: 'application/json', message: 'The webhook answered 404: not registered' }}
      />,
    );
    expect(text(html)).toContain('The webhook answered 404: not registered');
    expect(text(html)).toContain('HTTP 404');
    expect(html).toContain('text-destructive');
  });

  it('shows why no answer came, without an empty body section', () => {
    const html = renderToStaticMarkup(
      <WebhookTestResultView url={URL} result={{ ok: false, status: null, durationMs: 10_001, bodyExcerpt: '', contentType: null, message: 'No answer within 10 seconds' }} />,
    );
    expect(text(html)).toContain('No answer within 10 seconds');
    expect(text(html)).toContain('No answer');
    expect(text(html)).toContain('10001 ms');
    expect(html).not.toContain('Answer (first');
  });
});

describe('the payload template', () => {
  it('is shown as JSON with its copy button', () => {
    const template = n8nPayloadTemplate('https://parley.example.com', new Date('2026-11-25T00:00:00Z'));
    const html = renderToStaticMarkup(<PayloadTemplateView template={template} />);
    expect(html).toContain('aria-label="Copy the payload template"');
    expect(text(html)).toContain('"messages_url": "https://parley.example.com/api/v1/automation-executions/00000000-0000-0000-0000-000000000000/messages"');
  });
});
