import { BookOpen, Download, ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useDownloadStarterWorkflow } from '../api/download-starter-workflow';
import { usePayloadTemplate } from '../api/get-payload-template';
import { installationValues, type InstallationValues } from '../lib/installation';
import { CopyButton, CopyValue } from './copy-button';

/** The starter workflow's Webhook node path (server/modules/n8n/starter-workflow.ts). */
export const STARTER_WEBHOOK_PATH = 'parley-starter';

const STEP_MESSAGE_EXAMPLE = JSON.stringify(
  { step_name: 'Look up the order', message_type: 'info', content: 'Order 1042 found', metadata: { order_id: 1042 } },
  null,
  2,
);
const STATUS_EXAMPLE = JSON.stringify({ status: 'success', error_message: null, execution_id: '1234' }, null, 2);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid min-w-0 gap-2">
      <h3 className="text-base font-semibold">{title}</h3>
      <div className="grid min-w-0 gap-2 text-sm text-muted-foreground [&_strong]:text-foreground">{children}</div>
    </section>
  );
}

function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-medium">{label}</span>
        <CopyButton value={code} label={`Copy ${label}`} />
      </div>
      <pre className="overflow-auto rounded-md border bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap break-all text-foreground">{code}</pre>
    </div>
  );
}

function ExternalDocLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
      {children}
      <ExternalLink aria-hidden className="size-3" />
    </a>
  );
}

/** The guide's body with this installation's values; `download` is the starter workflow's button (admins), else null. */
export function N8nGuideView({ values, n8nWebhookBase, download }: { values: InstallationValues; n8nWebhookBase: string | null; download: ReactNode }) {
  const starterUrl = n8nWebhookBase === null ? null : `${n8nWebhookBase}${STARTER_WEBHOOK_PATH}`;
  return (
    <div className="grid min-w-0 gap-6">
      <Section title="1. Prerequisites">
        <ul className="list-disc space-y-1 pl-5">
          <li>An n8n instance (self-hosted n8n 1.x or n8n Cloud) where you can create workflows and API keys.</li>
          <li>
            n8n must reach this Parley at <strong className="break-all">{values.baseUrl}</strong>: workflows report their steps and outcome there.
          </li>
          <li>Parley must reach n8n. If n8n lives on a private network, connect it in &quot;n8n connection&quot; above: its address is then allowed.</li>
        </ul>
        <CopyValue label="Parley base URL" value={values.baseUrl} />
      </Section>

      <Section title="2. The webhook URL">
        <p>
          Every run starts with a POST to the workflow&apos;s <strong>Webhook</strong> node (HTTP Method POST). Its production URL is
          <code className="mx-1 rounded bg-muted px-1 font-mono text-xs break-all">{'<n8n address>/webhook/<path>'}</code>
          and it answers only while the workflow is <strong>active</strong>; the <code className="font-mono text-xs">/webhook-test/</code> URL works only while the editor listens.
        </p>
        {n8nWebhookBase !== null ? <CopyValue label="Your n8n's webhook base" value={n8nWebhookBase} /> : null}
        <p>Paste the URL as the automation&apos;s workflow URL, or import the workflow from n8n above: its URL is read from the Webhook node.</p>
      </Section>

      <Section title="3. The API key">
        <p>
          In n8n open <strong>Settings → n8n API → Create an API key</strong>, copy it, and paste it with your n8n&apos;s address into &quot;n8n connection&quot; above.
          Parley stores it encrypted and never shows it again.
        </p>
      </Section>

      <Section title="4. Configure the workflow">
        <p>
          On Run, Parley POSTs <code className="font-mono text-xs">execution_id</code>, <code className="font-mono text-xs">automation_config</code>,{' '}
          <code className="font-mono text-xs">client_id</code>, <code className="font-mono text-xs">timestamp</code> and{' '}
          <code className="font-mono text-xs">callback</code> (the two URLs below, already filled in for the run, and a <code className="font-mono text-xs">token</code>), signed
          with <code className="font-mono text-xs">X-Parley-Timestamp</code> and <code className="font-mono text-xs">X-Parley-Signature</code>.
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            Answer the webhook at once with <code className="font-mono text-xs break-all">{'{{ { execution_id: $execution.id } }}'}</code> (a Respond to Webhook node): Parley records n8n&apos;s
            execution id and waits at most 10 seconds for the answer.
          </li>
          <li>
            Report each step with an HTTP Request node: POST to <code className="font-mono text-xs">callback.messages_url</code> with the header{' '}
            <code className="font-mono text-xs break-all">{"Authorization: Bearer {{ $('Run from Parley').item.json.body.callback.token }}"}</code> (with your Webhook node&apos;s name), the URL{' '}
            <code className="font-mono text-xs break-all">{"{{ $('Run from Parley').item.json.body.callback.messages_url }}"}</code>.
          </li>
          <li>
            Report the outcome: PATCH <code className="font-mono text-xs">callback.status_url</code> with <code className="font-mono text-xs">status</code> (waiting, success, error or
            canceled), <code className="font-mono text-xs">error_message</code> when it failed.
          </li>
        </ol>
        <CopyValue label="Step messages endpoint (POST)" value={values.messagesUrl} />
        <CopyValue label="Status endpoint (PATCH)" value={values.statusUrl} />
        <CodeBlock label="Step message body" code={STEP_MESSAGE_EXAMPLE} />
        <CodeBlock label="Status body" code={STATUS_EXAMPLE} />
      </Section>

      <Section title="5. Start from the starter workflow">
        <p>
          It receives a run, answers with its execution id, posts a step message and reports success: import it as is, activate it, and run it from Parley.
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>Download the file below.</li>
          <li>
            In n8n: <strong>Workflows → Create Workflow</strong>, then the <strong>⋯</strong> menu at the top right → <strong>Import from File…</strong> and choose it. Save.
          </li>
          <li>Switch the workflow to <strong>Active</strong>.</li>
          <li>
            Its webhook URL is <code className="font-mono text-xs break-all">{starterUrl ?? `<n8n address>/webhook/${STARTER_WEBHOOK_PATH}`}</code>: import it above, or create an automation with
            that URL.
          </li>
        </ol>
        {download}
      </Section>

      <Section title="6. Test">
        <ol className="list-decimal space-y-1 pl-5">
          <li>Paste the webhook URL into &quot;Webhook URL&quot; above and press Test: Parley sends the payload template and shows n8n&apos;s real answer.</li>
          <li>Create an automation with that URL, press Run, and watch the step messages and the execution&apos;s status arrive in Automations.</li>
        </ol>
      </Section>

      <Section title="7. Troubleshooting">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>404 &quot;The requested webhook … is not registered&quot;</strong>: the workflow is not active, or the URL is the /webhook-test/ one.
          </li>
          <li>
            <strong>&quot;Refused: the address resolves to …&quot;</strong>: Parley does not call private addresses. Connect your n8n above (its address is then allowed) or ask the
            operator to list the host in OUTBOUND_ALLOWED_HOSTS.
          </li>
          <li>
            <strong>401 on a callback</strong>: use the <code className="font-mono text-xs">callback.token</code> of the same run; it stops working 10 minutes after the run ends.
          </li>
          <li>
            <strong>The run stays &quot;running&quot;</strong>: the workflow never reached {values.baseUrl}. n8n in Docker cannot reach Parley at localhost. Without a report the run
            ends as an error after the time limit (60 minutes unless the operator changed it); when n8n is connected and the workflow answered its execution id, Parley
            asks n8n how the execution ended instead.
          </li>
          <li>
            <strong>&quot;invalid syntax&quot; in an expression</strong>: <code className="font-mono text-xs">{'}}'}</code> ends an n8n expression; write nested objects with spaces, like{' '}
            <code className="font-mono text-xs">{'{ a: { b: 1 } }'}</code>.
          </li>
        </ul>
      </Section>

      <Section title="Links">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <ExternalDocLink href="https://docs.n8n.io/integrations/builtin/core-nodes/n8n-nodes-base.webhook/">n8n: the Webhook node</ExternalDocLink>
          </li>
          <li>
            <ExternalDocLink href="https://docs.n8n.io/api/authentication/">n8n: API authentication</ExternalDocLink>
          </li>
          <li>
            <ExternalDocLink href="https://docs.n8n.io/workflows/export-import/">n8n: export and import workflows</ExternalDocLink>
          </li>
        </ul>
      </Section>
    </div>
  );
}

function StarterWorkflowDownload() {
  const download = useDownloadStarterWorkflow();
  return (
    <div>
      <Button
        type="button"
        variant="outline"
        disabled={download.isPending}
        onClick={() =>
          download.mutate(undefined, {
            onSuccess: (name) => toast.success('Starter workflow downloaded', { description: name }),
            onError: (error) => toast.error('Download failed', { description: errorMessage(error, 'The starter workflow could not be downloaded.') }),
          })
        }
      >
        <Download aria-hidden />
        Download the starter workflow
      </Button>
    </div>
  );
}

/**
 * The N8N integration guide (part 2's content panel, third tab; the /settings n8n tab). Real
 * values: the API's public URL as it builds callback URLs (admins), else this page's origin.
 */
export function N8nGuide({ n8nWebhookBase = null }: { n8nWebhookBase?: string | null }) {
  const isAdmin = useCurrentUser().role === 'admin';
  const template = usePayloadTemplate(isAdmin);
  const values = installationValues(template.data, window.location.origin);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BookOpen aria-hidden className="size-4 text-primary" />
          N8N Integration Guide
        </CardTitle>
        <CardDescription>Connect a workflow in n8n to Parley, step by step, with this installation&apos;s addresses.</CardDescription>
      </CardHeader>
      <CardContent>
        <N8nGuideView
          values={values}
          n8nWebhookBase={n8nWebhookBase}
          download={isAdmin ? <StarterWorkflowDownload /> : <p>An administrator can download the starter workflow from Settings → n8n Integration.</p>}
        />
      </CardContent>
    </Card>
  );
}
