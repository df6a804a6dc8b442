import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Label } from './label';

/** Accessible ids for a control: tests and screen readers find it by its label and its error. */
export function fieldA11y(id: string, error: string | undefined, hasDescription = false) {
  const describedBy = [error ? `${id}-error` : null, hasDescription ? `${id}-description` : null].filter(Boolean);
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
  } as const;
}

export function FormField({
  id,
  label,
  error,
  description,
  action,
  className,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  description?: ReactNode;
  /** Something to show at the right of the label, e.g. "Forgot password?". */
  action?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {action}
      </div>
      {children}
      {description ? (
        <div id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </div>
      ) : null}
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-destructive" role="alert">
      {children}
    </p>
  );
}
