import type { ReactNode } from 'react';
import type { CurrentUser } from '@common/api/users';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';

export interface AppShellProps {
  user: CurrentUser;
  title: string;
  subtitle?: string | undefined;
  headerActions?: ReactNode;
  onSignOut: () => void;
  signingOut: boolean;
  /** Counts beside sidebar links, by path. */
  navBadges?: Readonly<Partial<Record<string, number>>>;
  children: ReactNode;
}

/** The signed-in layout of spec part 1 §2.10: sidebar, header and the page. */
export function AppShell({ user, title, subtitle, headerActions, onSignOut, signingOut, navBadges, children }: AppShellProps) {
  return (
    <SidebarProvider>
      <AppSidebar user={user} onSignOut={onSignOut} signingOut={signingOut} badges={navBadges} />
      <SidebarInset>
        <AppHeader title={title} subtitle={subtitle} role={user.role} actions={headerActions} />
        <main id="main" className="flex-1 p-4 md:p-6">
          {children}
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}
