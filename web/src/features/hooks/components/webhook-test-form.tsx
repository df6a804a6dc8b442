import { CheckCircle2, Send, TriangleAlert, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { WebhookTestResult } from '@common/api/hooks';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/cn';
import { useTestWebhook } from '../api/test-webhook';
import { checkTestForm, defaultTestBody, fieldErrorsOf, testOutcome, testRefusal, URL_REQUIRED, type TestFormErrors, type TestOutcome } from '../lib/webhooks';

type Shown = { result: WebhookTestResult; outcome: TestOutcome } | { refused: string };

const OUTCOME_STYLE: Readonly<Record<TestOutcome['kind'] | 'refused', { icon: typeof CheckCircle2; tone: string }>> = {
  triggered: { icon: CheckCircle2, tone: 'border-success/40 text-success' },
  failed: { icon: XCircle, tone: 'border-destructive/40 text-destructive' },
  refused: { icon: XCircle, tone: 'border-destructive/40 text-destructive' },
  sent: { icon: TriangleAlert, tone: 'border-warning/40 text-warning' },
};

/** What the test showed: the outcome's words, the real status, the time and the response excerpt. */
export function TestResultCard({ shown }: { shown: Shown }) {
  const kind = 'refused' in shown ? 'refused' : shown.outcome.kind;
  const { icon: Icon, tone } = OUTCOME_STYLE[kind];
  const title = 'refused' in shown ? 'Webhook Failed' : shown.outcome.title;
  const description = 'refused' in shown ? shown.refused : shown.outcome.description;
  return (
    <section aria-label="Test result" data-testid="webhook-test-result" data-outcome={kind} className={cn('grid min-w-0 gap-3 rounded-xl border bg-card p-4', tone)}>
      <div className="flex items-start gap-2">
        <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid min-w-0 gap-1">
          <p className="font-semibold">{title}</p>
          <p className="text-sm break-words text-foreground">{description}</p>
        </div>
      </div>
      {'result' in shown ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm text-foreground">
          <dt className="text-muted-foreground">Status</dt>
          <dd className="tabular-nums">{shown.result.status ?? 'No answer'}</dd>
          <dt className="text-muted-foreground">Time</dt>
          <dd className="tabular-nums">{shown.result.duration_ms} ms</dd>
          {shown.result.error ? (
            <>
              <dt className="text-muted-foreground">Error</dt>
              <dd className="break-words">{shown.result.error}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {'result' in shown && shown.result.response_excerpt ? (
        <div className="grid gap-1 text-foreground">
          <p className="text-sm text-muted-foreground">Response</p>
          <pre className="max-h-64 overflow-auto rounded-md bg-muted p-3 font-mono text-xs break-all whitespace-pre-wrap">{shown.result.response_excerpt}</pre>
        </div>
      ) : null}
    </section>
  );
}

/**
 * Spec §7 "Webhook test": a URL (required, of URL type) and the editable JSON body, pretty-printed
 * by default; Parley's server sends it and reads the answer, which the page shows as it was.
 */
export function WebhookTestForm() {
  const test = useTestWebhook();
  const [url, setUrl] = useState('');
  const [body, setBody] = useState(() => defaultTestBody());
  const [errors, setErrors] = useState<TestFormErrors>({});
  const [shown, setShown] = useState<Shown | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTestForm({ url, body });
    if (!checked.ok) {
      setErrors(checked.errors);
      if (checked.errors.url === URL_REQUIRED) toast.error('Error', { description: URL_REQUIRED });
      return;
    }
    setErrors({});
    setShown(null);
    test.mutate(checked.input, {
      onSuccess: (result) => {
        const outcome = testOutcome(result);
        setShown({ result, outcome });
        if (outcome.kind === 'triggered') toast.success(outcome.title, { description: outcome.description });
        else if (outcome.kind === 'sent') toast.warning(outcome.title, { description: outcome.description });
        else toast.error(outcome.title, { description: outcome.description });
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error, ['url', 'body']));
        const refusal = testRefusal(error);
        setShown({ refused: refusal.description });
        toast.error(refusal.title, { description: refusal.description });
      },
    });
  };

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Test a Webhook</CardTitle>
        <CardDescription>Parley POSTs the JSON body to the URL with a JSON content type and shows what the endpoint answered.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid min-w-0 gap-4">
          <FormField id="webhook-test-url" label="Webhook URL" error={errors.url}>
            <Input
              {...fieldA11y('webhook-test-url', errors.url)}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/webhook"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                if (errors.url) setErrors(({ url: _url, ...rest }) => rest);
              }}
            />
          </FormField>
          <FormField
            id="webhook-test-body"
            label="JSON Body"
            error={errors.body}
            action={
              <Button type="button" variant="ghost" size="sm" onClick={() => setBody(defaultTestBody())}>
                Reset
              </Button>
            }
          >
            <Textarea
              {...fieldA11y('webhook-test-body', errors.body)}
              rows={8}
              spellCheck={false}
              wrap="off"
              className="overflow-x-auto font-mono text-xs"
              value={body}
              onChange={(e) => {
                setBody(e.target.value);
                if (errors.body) setErrors(({ body: _body, ...rest }) => rest);
              }}
            />
          </FormField>
          <div>
            <Button type="submit" disabled={test.isPending}>
              <Send aria-hidden />
              {test.isPending ? 'Sending...' : 'Send Test'}
            </Button>
          </div>
          {shown ? <TestResultCard shown={shown} /> : null}
        </form>
      </CardContent>
    </Card>
  );
}
