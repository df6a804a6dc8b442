import { LogOut, MessageSquareText } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import { RoleBadge } from '@/components/role-badge';
import { Avatar, AvatarFallback, AvatarImage, initialsOf } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { isActiveLink, navItemsFor } from '../lib/nav-items';

export interface AppSidebarProps {
  user: CurrentUser;
  onSignOut: () => void;
  signingOut: boolean;
  /** Real counts beside links, by the link's path (the manager's unread Messages); hidden at zero. */
  badges?: Readonly<Partial<Record<string, number>>>;
}

function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

export function AppSidebar({ user, onSignOut, signingOut, badges }: AppSidebarProps) {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile, state } = useSidebar();
  const collapsed = !isMobile && state === 'collapsed';
  const closeDrawer = () => {
    if (isMobile) setOpenMobile(false);
  };

  return (
    <Sidebar label="Sidebar">
      <SidebarHeader>
        <Link
          to="/dashboard"
          onClick={closeDrawer}
          className="flex h-10 items-center gap-2 rounded-md px-1.5 font-semibold group-data-[collapsible=icon]:px-0.5"
        >
          <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <MessageSquareText aria-hidden className="size-4" />
          </span>
          <span className="truncate group-data-[collapsible=icon]:hidden">Parley</span>
        </Link>
      </SidebarHeader>

      <SidebarContent>
        <nav aria-label="Main navigation">
          <SidebarMenu>
            {navItemsFor(user.role).map((item) => (
              <SidebarMenuItem key={item.to}>
                <SidebarMenuButton asChild isActive={isActiveLink(item.to, pathname)} tooltip={item.label}>
                  <Link
                    to={item.to}
                    onClick={closeDrawer}
                    aria-current={isActiveLink(item.to, pathname) ? 'page' : undefined}
                  >
                    <item.icon aria-hidden />
                    <span className="group-data-[collapsible=icon]:hidden">{item.label}</span>
                    {(badges?.[item.to] ?? 0) > 0 ? (
                      <span
                        data-testid="nav-badge"
                        aria-label={`(${badges?.[item.to] ?? 0} unread)`}
                        className="ml-auto rounded-full bg-primary px-1.5 py-0.5 text-[0.65rem] leading-none font-semibold text-primary-foreground tabular-nums group-data-[collapsible=icon]:hidden"
                      >
                        {badgeText(badges?.[item.to] ?? 0)}
                      </span>
                    ) : null}
                  </Link>
                </SidebarMenuButton>
              </SidebarMenuItem>
            ))}
          </SidebarMenu>
        </nav>
      </SidebarContent>

      <SidebarFooter>
        <div className="flex items-center gap-2 group-data-[collapsible=icon]:justify-center" data-testid="user-block">
          <Link to="/profile" onClick={closeDrawer} className="shrink-0 rounded-full" aria-label="My profile">
            <Avatar className="size-9 group-data-[collapsible=icon]:size-8">
              {user.avatarUrl ? <AvatarImage src={user.avatarUrl} alt="" /> : null}
              <AvatarFallback>{initialsOf(user.name || user.email)}</AvatarFallback>
            </Avatar>
          </Link>
          <div className="grid min-w-0 flex-1 gap-1 group-data-[collapsible=icon]:hidden">
            <p className="truncate text-sm leading-tight font-medium">{user.name || user.email}</p>
            <p className="truncate text-xs leading-tight text-muted-foreground">{user.email}</p>
            <div className="flex flex-wrap items-center gap-2">
              <RoleBadge role={user.role} />
              <span className="inline-flex items-center gap-1 text-xs text-success">
                <span aria-hidden className="size-2 rounded-full bg-success" />
                Online
              </span>
            </div>
          </div>
        </div>
        {collapsed ? (
          <Tooltip>
            <TooltipTrigger asChild>
              <Button variant="ghost" size="icon" className="size-8" onClick={onSignOut} disabled={signingOut} aria-label="Sign Out">
                <LogOut aria-hidden />
              </Button>
            </TooltipTrigger>
            <TooltipContent side="right">Sign Out</TooltipContent>
          </Tooltip>
        ) : (
          <Button variant="outline" size="sm" className="w-full justify-start" onClick={onSignOut} disabled={signingOut}>
            <LogOut aria-hidden />
            {signingOut ? 'Signing out...' : 'Sign Out'}
          </Button>
        )}
      </SidebarFooter>
    </Sidebar>
  );
}
