import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { CreatedApiKey } from '@common/api/api-keys';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';

/** The new key, shown this once, with a copy button. */
export function NewApiKey({ created }: { created: CreatedApiKey }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(created.key)) {
      setCopied(true);
      toast.success('Copied to clipboard');
    } else {
      toast.error('Copy failed', { description: 'Select the key and copy it by hand.' });
    }
  };
  return (
    <div className="grid min-w-0 gap-3">
      <Alert className="border-warning/40 bg-warning/10">
        <TriangleAlert aria-hidden />
        <AlertTitle>Copy this key now</AlertTitle>
        <AlertDescription>You won&apos;t see it again: Parley keeps only a hash of it. If you lose it, revoke it and create another.</AlertDescription>
      </Alert>
      <div className="flex min-w-0 items-start gap-2">
        <code aria-label={`API key ${created.apiKey.name}`} className="min-w-0 flex-1 rounded-md border bg-muted/50 px-2 py-1.5 font-mono text-xs break-all select-all">
          {created.key}
        </code>
        <Button type="button" variant="outline" size="icon" aria-label="Copy the API key" className="shrink-0" onClick={() => void copy()}>
          {copied ? <Check aria-hidden className="text-success" /> : <Copy aria-hidden />}
        </Button>
      </div>
      <p className="text-xs break-words text-muted-foreground">
        Send it as <code className="font-mono">Authorization: Bearer {created.apiKey.prefix}…</code>
      </p>
    </div>
  );
}
