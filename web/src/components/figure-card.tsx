import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/cn';

/** One figure in a card: its title and icon, the value (large, or `small` for a sentence), a note and what follows (a change). */
export function FigureCard({
  title,
  value,
  note,
  icon: Icon,
  small = false,
  children,
}: {
  title: string;
  value: string;
  note?: string | undefined;
  icon: LucideIcon;
  small?: boolean;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="gap-2 py-4">
      <CardContent className="grid gap-1 px-4">
        <div className="flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-sm font-normal text-muted-foreground">
            {title}
          </h2>
          <Icon aria-hidden className="size-4 shrink-0 text-primary" />
        </div>
        <p data-testid="metric-value" className={cn('font-semibold tabular-nums', small ? 'text-sm' : 'text-2xl')}>
          {value}
        </p>
        {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
        {children}
      </CardContent>
    </Card>
  );
}
