/**
 * Sidebar links by role, exactly as spec part 1 §2.10's table gives them. Labels the table leaves
 * unnamed get the page's plain name.
 */
import {
  Bot,
  ChartNoAxesCombined,
  FileStack,
  House,
  Lightbulb,
  LineChart,
  MessageSquare,
  MessagesSquare,
  Settings,
  Sparkles,
  UserRound,
  Users,
  UsersRound,
  Webhook,
  Workflow,
  Zap,
  Bell,
  Mail,
  Newspaper,
  Gauge,
  ShieldCheck,
  Receipt,
  type LucideIcon,
} from 'lucide-react';
import type { Role } from '@common/roles';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

const ADMIN_NAV: readonly NavItem[] = [
  { label: 'Home', to: '/user/dashboard', icon: House },
  { label: 'All Clients', to: '/admin/clients', icon: UsersRound },
  { label: 'Legacy Clients', to: '/clients', icon: Users },
  { label: 'Conversations', to: '/conversations', icon: MessagesSquare },
  { label: 'Insights', to: '/insights', icon: Lightbulb },
  { label: 'Templates', to: '/admin/templates', icon: FileStack },
  { label: 'n8n Workflows', to: '/admin/n8n-workflows', icon: Workflow },
  { label: 'Zapier Zaps', to: '/admin/zapier-zaps', icon: Zap },
  { label: 'Webhooks', to: '/admin/webhooks', icon: Webhook },
  { label: 'Automations', to: '/automations', icon: Bot },
  { label: 'Settings', to: '/settings', icon: Settings },
];

// The prototype's /messages carried a fixed badge "3"; the shell shows the real unread count
// instead (AppSidebar's `badges`), hidden at zero.
const MANAGER_NAV: readonly NavItem[] = [
  { label: 'Home', to: '/user/dashboard', icon: House },
  { label: 'Messages', to: '/messages', icon: MessageSquare },
  { label: 'AI Agents', to: '/agents', icon: Bot },
  { label: 'Analytics', to: '/analytics', icon: LineChart },
];

const CLIENT_NAV: readonly NavItem[] = [
  { label: 'Home', to: '/user/dashboard', icon: House },
  { label: 'My Conversations', to: '/conversations', icon: MessagesSquare },
  { label: 'My Profile', to: '/profile', icon: UserRound },
  { label: 'AI Summary', to: '/summary', icon: Sparkles },
];

export function navItemsFor(role: Role): readonly NavItem[] {
  switch (role) {
    case 'admin':
      return ADMIN_NAV;
    case 'manager':
      return MANAGER_NAV;
    case 'client':
      return CLIENT_NAV;
  }
}

/** Pages the header search can jump to: the role's links plus the account pages everyone has. */
export function searchablePagesFor(role: Role): readonly NavItem[] {
  const extra: NavItem[] = [
    { label: 'My Profile', to: '/profile', icon: UserRound },
    { label: 'Notifications', to: '/notifications', icon: Bell },
    { label: 'Dashboard', to: '/dashboard', icon: ChartNoAxesCombined },
  ];
  if (role === 'admin') {
    extra.push(
      { label: 'User Management', to: '/admin/users', icon: ShieldCheck },
      { label: 'Email Outbox', to: '/admin/outbox', icon: Mail },
      { label: 'Content Management', to: '/admin', icon: Newspaper },
      { label: 'Production Readiness', to: '/admin/production-status', icon: Gauge },
      { label: 'Billing', to: '/admin/billing', icon: Receipt },
    );
  }
  const pages: NavItem[] = [];
  for (const item of [...navItemsFor(role), ...extra]) {
    if (!pages.some((page) => page.to === item.to)) pages.push(item);
  }
  return pages;
}

/** The first page whose label contains the query (case-insensitive), for the header search. */
export function findPageByLabel(role: Role, query: string): NavItem | undefined {
  const q = query.trim().toLowerCase();
  if (q === '') return undefined;
  const pages = searchablePagesFor(role);
  return pages.find((p) => p.label.toLowerCase().startsWith(q)) ?? pages.find((p) => p.label.toLowerCase().includes(q));
}

/** Is `pathname` the link's page (the dashboard answers to both of its paths)? */
export function isActiveLink(to: string, pathname: string): boolean {
  const dashboards = ['/dashboard', '/user/dashboard'];
  if (dashboards.includes(to)) return dashboards.includes(pathname);
  return pathname === to || pathname.startsWith(`${to}/`);
}
