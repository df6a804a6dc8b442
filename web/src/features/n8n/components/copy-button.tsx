import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';

/** Part 2 §9: the copied check mark lasts 2 seconds. */
export const COPIED_MS = 2000;

/** Copies `value`; `copied` stays true for 2 seconds after a copy that worked. */
export function useCopy(value: string, toastTitle: string) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    if (await copyText(value)) {
      setCopied(true);
      toast.success(toastTitle);
    } else {
      toast.error('Copy failed', { description: 'Your browser refused the clipboard: select the text and copy it with Ctrl+C.' });
    }
  };
  return { copied, copy };
}

export function CopyButtonView({ label, copied, onClick }: { label: string; copied: boolean; onClick?: () => void }) {
  return (
    <Button type="button" variant="outline" size="icon" aria-label={label}
      data-copied={copied ? 'true' : undefined} onClick={onClick} className="shrink-0">
      {copied ? <Check aria-hidden className="text-success" /> : <Copy aria-hidden />}
    </Button>
  );
}

/** A copy button: 'Copied to clipboard' (the guide's text, part 2 §8) unless told otherwise, and a check mark for 2 s. */
export function CopyButton({ value, label, toastTitle = 'Copied to clipboard' }: { value: string; label: string; toastTitle?: string }) {
  const { copied, copy } = useCopy(value, toastTitle);
  return <CopyButtonView label={label} copied={copied} onClick={() => void copy()} />;
}

/** A long value (a URL, an endpoint) that wraps on a narrow screen, with its copy button. */
export function CopyValue({ label, value, toastTitle }: { label: string; value: string; toastTitle?: string }) {
  return (
    <div className="grid min-w-0 gap-1">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <div className="flex min-w-0 items-start gap-2">
        <code className="min-w-0 flex-1 rounded-md border bg-muted/50 px-2 py-1.5 font-mono text-xs break-all">{value}</code>
        <CopyButton value={value} label={`Copy ${label}`} {...(toastTitle === undefined ? {} : { toastTitle })} />
      </div>
    </div>
  );
}
