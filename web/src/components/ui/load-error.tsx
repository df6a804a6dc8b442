import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * The dashed, centred box a list or panel shows when its data could not be loaded: the message,
 * then a small outline retry button (only when `onRetry` is given), then any `children` (other
 * actions, e.g. Close or Back). `className` is merged, so a call site can change e.g. the padding.
 */
export function LoadError({
  message,
  onRetry,
  retryLabel = 'Try Again',
  className,
  children,
}: {
  message: ReactNode;
  onRetry?: (() => void) | undefined;
  retryLabel?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn('grid justify-items-center gap-2 rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground', className)}>
      <p>{message}</p>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={() => onRetry()}>
          {retryLabel}
        </Button>
      ) : null}
      {children}
    </div>
  );
}
