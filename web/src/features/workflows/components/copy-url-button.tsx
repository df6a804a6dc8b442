import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';
import { URL_COPIED, URL_NOT_COPIED } from '../lib/feedback';
import { showError, showSuccess } from './show';

/** Copy a webhook URL: 'Copied' / 'URL copied to clipboard'. */
export function CopyUrlButton({ url, label }: { url: string; label: string }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8 shrink-0"
      aria-label={label}
      title={label}
      onClick={() => {
        void copyText(url).then((ok) => (ok ? showSuccess(URL_COPIED) : showError(URL_NOT_COPIED)));
      }}
    >
      <Copy aria-hidden />
    </Button>
  );
}

/** A webhook URL on one line that never widens its card, with its copy button. */
export function WebhookUrl({ url, label }: { url: string; label: string }) {
  return (
    <div className="flex min-w-0 items-center gap-1 rounded-md bg-muted/40 py-0.5 pr-0.5 pl-2">
      <code className="min-w-0 flex-1 truncate text-xs" title={url}>
        {url}
      </code>
      <CopyUrlButton url={url} label={label} />
    </div>
  );
}
