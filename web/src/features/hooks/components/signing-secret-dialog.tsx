import { CopyField } from '@/components/copy-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

/** The signing secret, shown this once after creation or rotation, with copy. */
export function SigningSecretDialog({ secret, title, onClose }: { secret: string | null; title: string; onClose: () => void }) {
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Copy the signing secret now: Parley will not show it again.</DialogDescription>
        </DialogHeader>
        {secret !== null ? (
          <div className="grid min-w-0 gap-3">
            <CopyField label="Signing Secret" value={secret} />
            <p className="text-xs text-muted-foreground">
              Every delivery carries X-Parley-Timestamp and X-Parley-Signature (sha256= and the hex HMAC-SHA256 of &quot;timestamp.raw body&quot; with this
              secret). Check it before trusting a request: the Guide tab shows how.
            </p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
