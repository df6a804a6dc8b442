import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';
import { Input } from './input';

/** A search field with the magnifier inside it; `wrapperClassName` sizes it in its row. */
export function SearchInput({ wrapperClassName, className, ...props }: Omit<ComponentProps<'input'>, 'type'> & { wrapperClassName?: string }) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input type="search" className={cn('pl-8', className)} {...props} />
    </div>
  );
}
