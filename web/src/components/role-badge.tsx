import { Briefcase, ShieldCheck, User, type LucideIcon } from 'lucide-react';
import { roleLabel, type Role } from '@common/roles';
import { cn } from '@/lib/cn';

const ROLE_STYLE: Record<Role, { icon: LucideIcon; className: string }> = {
  admin: { icon: ShieldCheck, className: 'border-rose-400/30 bg-rose-500/15 text-rose-300' },
  manager: { icon: Briefcase, className: 'border-sky-400/30 bg-sky-500/15 text-sky-300' },
  client: { icon: User, className: 'border-emerald-400/30 bg-emerald-500/15 text-emerald-300' },
};

/** The capitalised role with its own colour and icon (spec part 1 §2.10). */
export function RoleBadge({ role, className }: { role: Role; className?: string }) {
  const { icon: Icon, className: roleClass } = ROLE_STYLE[role];
  return (
    <span
      data-role={role}
      className={cn(
        'inline-flex w-fit items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-medium',
        roleClass,
        className,
      )}
    >
      <Icon aria-hidden className="size-3" />
      {roleLabel(role)}
    </span>
  );
}
