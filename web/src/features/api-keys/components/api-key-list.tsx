import { KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { API_SCOPE_LABELS } from '@common/api/api-scopes';
import type { ApiKeyView } from '@common/api/api-keys';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatRelative } from '@/lib/format';
import type { ApiKeyKind } from '../api/keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

/** "Expired", "Expires …" or "Never expires". */
export function expiryText(expiresAt: string | null, now: Date = new Date()): { text: string; expired: boolean } {
  if (!expiresAt) return { text: 'Never expires', expired: false };
  if (new Date(expiresAt).getTime() <= now.getTime()) return { text: `Expired ${formatDate(expiresAt)}`, expired: true };
  return { text: `Expires ${formatDate(expiresAt)}`, expired: false };
}

export function lastUsedText(key: Pick<ApiKeyView, 'lastUsedAt' | 'lastUsedIp'>, now: Date = new Date()): string {
  if (!key.lastUsedAt) return 'Never used';
  return `Last used ${formatRelative(key.lastUsedAt, now)}${key.lastUsedIp ? ` from ${key.lastUsedIp}` : ''}`;
}

function RevokeButton({ kind, apiKey }: { kind: ApiKeyKind; apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKey(kind);
  const confirm = () =>
    revoke.mutate(apiKey.id, {
      onSuccess: () => toast.success('API Key Revoked', { description: `“${apiKey.name}” no longer works.` }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The API key could not be revoked.') }),
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Revoke the API key “${apiKey.name}”`} disabled={revoke.isPending}>
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke this API key?</AlertDialogTitle>
          <AlertDialogDescription>
            Programs using “{apiKey.name}” ({apiKey.prefix}…) are refused from their next request. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirm}>
            Revoke
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The keys with their prefix, scopes, dates and last use; each revocable after a confirmation. */
export function ApiKeyList({ kind, apiKeys, now = new Date() }: { kind: ApiKeyKind; apiKeys: readonly ApiKeyView[]; now?: Date }) {
  if (apiKeys.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <KeyRound aria-hidden className="size-4" />
        No API keys yet.
      </p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="API keys">
      {apiKeys.map((apiKey) => {
        const expiry = expiryText(apiKey.expiresAt, now);
        return (
          <li key={apiKey.id} className="flex flex-wrap items-start gap-3 rounded-lg border p-3">
            <KeyRound aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
            <div className="grid min-w-0 flex-1 gap-1">
              <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-medium">
                <span className="min-w-0 break-words">{apiKey.name}</span>
                {expiry.expired ? <Badge variant="destructive">Expired</Badge> : null}
              </p>
              <code className="font-mono text-xs break-all text-muted-foreground">{apiKey.prefix}…</code>
              <ul className="flex min-w-0 flex-wrap gap-1" aria-label="Scopes">
                {apiKey.scopes.map((scope) => (
                  <li key={scope} className="min-w-0 max-w-full">
                    {/* Long labels wrap inside the badge at 390 px instead of widening the page. */}
                    <Badge variant="secondary" className="max-w-full whitespace-normal break-words">
                      {API_SCOPE_LABELS[scope]}
                    </Badge>
                  </li>
                ))}
              </ul>
              <p className="text-xs text-muted-foreground">
                Created {formatDate(apiKey.createdAt)}
                {kind === 'service' ? ` by ${apiKey.owner.name}` : ''} · {lastUsedText(apiKey, now)} · {expiry.text}
              </p>
            </div>
            <RevokeButton kind={kind} apiKey={apiKey} />
          </li>
        );
      })}
    </ul>
  );
}
