import { CircleCheck, CircleX, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { N8nWebhookTestResult } from '@common/api/n8n';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePayloadTemplate } from '../api/get-payload-template';
import { useTestWebhook } from '../api/test-webhook';
import { formatBodyExcerpt, webhookTestToast, webhookUrlProblem } from '../lib/webhook-test';
import { CopyButton } from './copy-button';

/** The real answer of a webhook test: status, time, content type and the start of the body. */
export function WebhookTestResultView({ url, result }: { url: string; result: N8nWebhookTestResult }) {
  const body = formatBodyExcerpt(result.bodyExcerpt);
  return (
    <div
      data-testid="webhook-test-result"
      className={`grid min-w-0 gap-2 rounded-lg border p-3 text-sm ${result.ok ? 'border-success/40 bg-success/5' : 'border-destructive/40 bg-destructive/5'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {result.ok ? <CircleCheck aria-hidden className="size-4 text-success" /> : <CircleX aria-hidden className="size-4 text-destructive" />}
        <span className="font-medium">{result.message}</span>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">URL</dt>
        <dd className="font-mono break-all">{url}</dd>
        <dt className="text-muted-foreground">Status</dt>
        <dd>
          {result.status === null ? (
            <span>No answer</span>
          ) : (
            <Badge variant={result.ok ? 'success' : 'destructive'}>{`HTTP ${result.status}`}</Badge>
          )}
        </dd>
        <dt className="text-muted-foreground">Time</dt>
        <dd>{`${result.durationMs} ms`}</dd>
        {result.contentType ? (
          <>
            <dt className="text-muted-foreground">Content type</dt>
            <dd className="break-all">{result.contentType}</dd>
          </>
        ) : null}
      </dl>
      {result.status !== null ? (
        <div className="grid min-w-0 gap-1">
          <span className="text-xs text-muted-foreground">Answer (first 1,000 characters)</span>
          {body === '' ? (
            <span className="text-xs italic text-muted-foreground">Empty body</span>
          ) : (
            <pre className="max-h-60 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">{body}</pre>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** The payload a run sends, pretty-printed, with its copy button ('Template Copied', part 1 §8). */
export function PayloadTemplateView({ template }: { template: Record<string, unknown> }) {
  const text = JSON.stringify(template, null, 2);
  return (
    <div className="grid min-w-0 gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Payload template</span>
        <CopyButton value={text} label="Copy the payload template" toastTitle="Template Copied" />
      </div>
      <pre
        aria-label="Payload template"
        className="max-h-72 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs whitespace-pre-wrap break-all"
      >
        {text}
      </pre>
    </div>
  );
}

/**
 * Part 1 §2.17's webhook URL field with Test, made real: the server POSTs the payload template
 * to the URL and the answer (or why none came) is shown as it was.
 */
export function WebhookTestCard() {
  const id = useId();
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [last, setLast] = useState<{ url: string; result: N8nWebhookTestResult } | null>(null);
  const test = useTestWebhook();
  const template = usePayloadTemplate();

  const run = () => {
    const empty = webhookUrlProblem(url);
    setProblem(empty);
    if (empty !== null) {
      toast.error('Error', { description: empty });
      return;
    }
    const target = url.trim();
    const toastId = toast.loading('Testing Webhook', { description: target });
    test.mutate(
      { url: target },
      {
        onSuccess: (result) => {
          setLast({ url: target, result });
          const shown = webhookTestToast(result);
          (shown.ok ? toast.success : toast.error)(shown.title, { id: toastId, description: shown.description });
        },
        onError: (error) => {
          const message = errorMessage(error, 'The webhook could not be tested.');
          setProblem(message);
          toast.error('Webhook Test Failed', { id: toastId, description: message });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send aria-hidden className="size-4 text-primary" />
          Webhook
        </CardTitle>
        <CardDescription>Parley sends the payload template below to the URL, from the server, and shows what the workflow answered.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          aria-label="Webhook test"
          className="grid gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            run();
          }}
        >
          <FormField id={`${id}-url`} label="Webhook URL" error={problem ?? undefined}>
            <div className="flex min-w-0 gap-2">
              <Input
                {...fieldA11y(`${id}-url`, problem ?? undefined)}
                type="url"
                inputMode="url"
                placeholder="https://n8n.example.com/webhook/parley"
                value={url}
                onChange={(event) => {
                  setUrl(event.target.value);
                  if (problem !== null) setProblem(null);
                }}
                className="min-w-0 flex-1"
              />
              <Button type="submit" disabled={test.isPending}>
                {test.isPending ? 'Testing…' : 'Test'}
              </Button>
            </div>
          </FormField>
        </form>
        {last ? <WebhookTestResultView url={last.url} result={last.result} /> : null}
        {template.data ? (
          <PayloadTemplateView template={template.data} />
        ) : template.isError ? (
          <p className="text-sm text-destructive">{errorMessage(template.error, 'The payload template could not be loaded.')}</p>
        ) : (
          <Skeleton className="h-40 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
