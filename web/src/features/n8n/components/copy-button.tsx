import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';
import { copyWithFeedback } from '../lib/copy-feedback';

/** Copies `value` with the toast `toastTitle`; `copied` stays true for 2 seconds after a copy that worked. */
export function useCopy(value: string, toastTitle: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () =>
    copyWithFeedback(value, toastTitle, {
      copy: copyText,
      success: (title) => toast.success(title),
      failure: (title, description) => toast.error(title, { description }),
      setCopied,
      timer,
    });
  return { copied, copy };
}

export function CopyButtonView({ label, copied, onClick }: { label: string; copied: boolean; onClick?: () => void }) {
  return (
    <Button type="button" variant="outline" size="icon" aria-label={label} data-copied={copied ? 'true' : undefined} onClick={onClick} className="shrink-0">
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
