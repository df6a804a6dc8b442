import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useN8nConnection } from '../api/get-n8n-connection';
import { N8nConnectionCard } from './n8n-connection-card';
import { N8nGuide } from './n8n-guide';
import { N8nWorkflowsCard } from './n8n-workflows-card';
import { WebhookTestCard } from './webhook-test-card';

/**
 * The n8n Integration tab of /settings (spec part 1 §2.17, issue 13 §5): the webhook Test with the
 * payload template, the installation's n8n connection and its workflows, and the guide. Every n8n
 * route is admin only, so others are told who connects n8n instead of being shown controls that
 * would be refused.
 */
export function N8nSettings() {
  const isAdmin = useCurrentUser().role === 'admin';
  if (!isAdmin) {
    return (
      <div className="grid min-w-0 gap-4">
        <Alert>
          <AlertTitle>n8n is connected by an administrator</AlertTitle>
          <AlertDescription>An administrator connects n8n, imports its workflows and tests webhooks here. The guide below shows how a workflow talks to Parley.</AlertDescription>
        </Alert>
        <N8nGuide />
      </div>
    );
  }
  return <AdminN8nSettings />;
}

function AdminN8nSettings() {
  const connection = useN8nConnection();
  const view = connection.data ?? null;
  return (
    <div className="grid min-w-0 gap-4">
      <WebhookTestCard />
      {connection.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : connection.isError ? (
        <Alert variant="destructive">
          <AlertTitle>The n8n connection could not be loaded</AlertTitle>
          <AlertDescription>{errorMessage(connection.error, 'Try again in a moment.')}</AlertDescription>
        </Alert>
      ) : (
        <>
          <N8nConnectionCard connection={view} />
          {view ? <N8nWorkflowsCard /> : null}
        </>
      )}
      <N8nGuide n8nWebhookBase={view?.webhookBaseUrl ?? null} />
    </div>
  );
}
