import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { copyText } from '@/lib/clipboard';

/** Part 2 §9: the copied check mark lasts 2 seconds. */
const COPIED_MS = 2000;

/**
 * A read-only value with a copy button: "Copied" / "URL copied to clipboard" for URLs (spec part 2
 * §8), "<label> copied to clipboard" otherwise. If the browser refuses the clipboard, the text is
 * selected so it can be copied by hand.
 */
export function CopyField({ label, value, kind = 'text', multiline = false }: { label: string; value: string; kind?: 'url' | 'text'; multiline?: boolean }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (await copyText(value)) {
      setCopied(true);
      toast.success('Copied', { description: kind === 'url' ? 'URL copied to clipboard' : `${label} copied to clipboard` });
    } else {
      (document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null)?.select();
      toast.error('Copy failed', { description: 'Your browser refused the clipboard: the text is selected, copy it with Ctrl+C.' });
    }
  };

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-start gap-2">
        {multiline ? (
          <Textarea id={id} readOnly value={value} rows={3} className="font-mono text-xs" onFocus={(event) => event.target.select()} />
        ) : (
          <Input id={id} readOnly value={value} className="font-mono text-xs" onFocus={(event) => event.target.select()} />
        )}
        <Button type="button" variant="outline" size="icon" aria-label={`Copy ${label}`} onClick={() => void copy()}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        </Button>
      </div>
    </div>
  );
}
