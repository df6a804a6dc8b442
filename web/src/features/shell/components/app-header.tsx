import { Search } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Role } from '@common/roles';
import { Input } from '@/components/ui/input';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { findPageByLabel } from '../lib/nav-items';

export interface AppHeaderProps {
  title: string;
  subtitle?: string | undefined;
  role: Role;
  /** Right-hand actions, e.g. the notifications button. */
  actions?: ReactNode;
}

export function AppHeader({ title, subtitle, role, actions }: AppHeaderProps) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const page = findPageByLabel(role, query);
    if (page) {
      setQuery('');
      void navigate(page.to);
    } else if (query.trim() !== '') {
      toast.info('No matching page', { description: `Nothing in your menu matches "${query.trim()}".` });
    }
  };

  return (
    <header className="sticky top-0 z-10 flex h-16 shrink-0 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur">
      <SidebarTrigger className="-ml-1" />
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-lg leading-tight font-semibold">{title}</h1>
        {subtitle ? <p className="truncate text-sm text-muted-foreground">{subtitle}</p> : null}
      </div>
      <form role="search" onSubmit={onSearch} className="relative hidden w-64 md:block">
        <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id="dashboard-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search pages..."
          aria-label="Search pages"
          className="pl-8"
          autoComplete="off"
        />
      </form>
      {actions}
    </header>
  );
}
