import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useApiKeys } from '../api/get-api-keys';
import type { ApiKeyKind } from '../api/keys';
import { ApiKeyList } from './api-key-list';
import { CreateApiKeyDialog } from './create-api-key-dialog';

const COPY: Record<ApiKeyKind, { title: string; description: string }> = {
  personal: {
    title: 'API Keys',
    description:
      'Keys let your own programs and integrations (Zapier, n8n, scripts) call the Parley API as you: same role, same clients, only the scopes you choose. Send one as "Authorization: Bearer <key>".',
  },
  service: {
    title: 'Service Account Keys',
    description:
      'Keys for integrations that belong to the installation rather than to a person. A service key acts as the administrator who created it, with only its scopes, and stops working if that account is deactivated. Every administrator sees and can revoke them.',
  },
};

/** The API keys of the signed-in person (`/profile`) or the service-account keys (`/settings` → Security). */
export function ApiKeysCard({ kind }: { kind: ApiKeyKind }) {
  const keys = useApiKeys(kind);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{COPY[kind].title}</CardTitle>
        <CardDescription>
          {COPY[kind].description}{' '}
          <a className="underline underline-offset-2" href="/docs" target="_blank" rel="noreferrer">
            API documentation
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {keys.isPending ? (
          <Skeleton className="h-16" />
        ) : keys.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(keys.error, 'API keys could not be loaded.')}</p>
        ) : (
          <ApiKeyList kind={kind} apiKeys={keys.data} />
        )}
        <div>
          <CreateApiKeyDialog kind={kind} />
        </div>
      </CardContent>
    </Card>
  );
}
