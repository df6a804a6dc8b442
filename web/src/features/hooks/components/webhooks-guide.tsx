import { PUBLIC_EVENT_TYPES } from '@common/api/events';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { exampleEnvelope } from '../lib/event-examples';
import { DELIVERY_HEADERS, NODE_SNIPPET, PYTHON_SNIPPET, RETRY_POLICY, REST_HOOKS } from '../lib/guide';
import { EVENT_DESCRIPTIONS } from '../lib/webhooks';

function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre aria-label={label} className="max-h-96 min-w-0 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre">
      {children}
    </pre>
  );
}

/** How a delivery looks, how to check it, when Parley retries, what each event carries, and REST hooks. */
export function WebhooksGuide() {
  return (
    <div className="grid min-w-0 gap-6">
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>What Parley Sends</CardTitle>
          <CardDescription>
            Each event is a POST with the JSON body {'{'}id, type, created_at, api_version, client_id, data{'}'} and these headers:
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid min-w-0 gap-3 text-sm">
            {DELIVERY_HEADERS.map((header) => (
              <div key={header.name} className="grid min-w-0 gap-0.5">
                <dt className="font-mono text-xs font-semibold break-all">{header.name}</dt>
                <dd className="break-words text-muted-foreground">{header.value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Verify the Signature</CardTitle>
          <CardDescription>
            Compute the HMAC-SHA256 of the timestamp, a dot and the raw body — the exact bytes received, before parsing — with the subscription&apos;s signing
            secret, and compare it with X-Parley-Signature in constant time. The same check serves automation runs and the API channel.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          <div className="grid min-w-0 gap-2">
            <h4 className="text-sm font-semibold">Node.js</h4>
            <Code label="Node.js signature check">{NODE_SNIPPET}</Code>
          </div>
          <div className="grid min-w-0 gap-2">
            <h4 className="text-sm font-semibold">Python</h4>
            <Code label="Python signature check">{PYTHON_SNIPPET}</Code>
          </div>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Retries</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid list-disc gap-2 pl-5 text-sm">
            {RETRY_POLICY.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Events</CardTitle>
          <CardDescription>Open an event to see an example of what your endpoint receives.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul aria-label="Event catalogue" className="grid min-w-0 gap-2">
            {PUBLIC_EVENT_TYPES.map((type) => (
              <li key={type} className="min-w-0 rounded-lg border">
                <details className="group min-w-0">
                  <summary className="grid cursor-pointer gap-0.5 p-3">
                    <span className="font-mono text-xs font-semibold break-all">{type}</span>
                    <span className="text-sm text-muted-foreground">{EVENT_DESCRIPTIONS[type]}</span>
                  </summary>
                  <div className="min-w-0 px-3 pb-3">
                    <Code label={`Example ${type} payload`}>{JSON.stringify(exampleEnvelope(type), null, 2)}</Code>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Zapier and n8n (REST Hooks)</CardTitle>
          <CardDescription>
            Tools subscribe themselves with an API key (Authorization: Bearer &lt;key&gt;, scope to manage webhooks); such subscriptions appear in the list as REST
            hooks.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-3 text-sm">
          <dl className="grid min-w-0 gap-3">
            {REST_HOOKS.map((hook) => (
              <div key={`${hook.method} ${hook.path}`} className="grid min-w-0 gap-0.5">
                <dt className="font-mono text-xs font-semibold break-all">
                  {hook.method} {hook.path}
                </dt>
                <dd className="break-words text-muted-foreground">{hook.text}</dd>
              </div>
            ))}
          </dl>
          <p className="break-words">
            Zapier: in a private integration, make a REST Hook trigger whose subscribe and unsubscribe calls are the first two above, with the samples call as its
            sample step and /api/v1/me as the authentication test.
          </p>
          <p className="break-words">
            n8n: point a subscription (or a POST /api/v1/hooks call from an HTTP Request node with a Header Auth credential) at a Webhook node&apos;s production
            URL.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
