import * as AvatarPrimitive from '@radix-ui/react-avatar';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export function Avatar({ className, ...props }: ComponentProps<typeof AvatarPrimitive.Root>) {
  return (
    <AvatarPrimitive.Root
      data-slot="avatar"
      className={cn('relative flex size-8 shrink-0 overflow-hidden rounded-full', className)}
      {...props}
    />
  );
}

export function AvatarImage({ className, ...props }: ComponentProps<typeof AvatarPrimitive.Image>) {
  return <AvatarPrimitive.Image className={cn('aspect-square size-full object-cover', className)} {...props} />;
}

export function AvatarFallback({ className, ...props }: ComponentProps<typeof AvatarPrimitive.Fallback>) {
  return (
    <AvatarPrimitive.Fallback
      className={cn('flex size-full items-center justify-center rounded-full bg-muted text-xs font-medium', className)}
      {...props}
    />
  );
}

/** Up to two initials from a name (spec part 2 §5), or from the e-mail when there is no name. */
export function initialsOf(nameOrEmail: string): string {
  const words = nameOrEmail.split('@')[0]?.split(/[\s._-]+/u).filter(Boolean) ?? [];
  const initials = words.slice(0, 2).map((word) => word.charAt(0).toUpperCase());
  return initials.join('') || '?';
}
