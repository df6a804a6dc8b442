import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';

export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast.success('Copied to clipboard'),
      () => toast.error('Error', { description: 'Copying failed; select the codes and copy them by hand.' }),
    );
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded-md bg-muted p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button variant="outline" size="sm" className="w-fit" onClick={copy}>
        <Copy aria-hidden />
        Copy codes
      </Button>
    </div>
  );
}
