import {
  BarChart3,
  Bell,
  Bot,
  FileText,
  Mail,
  MessageSquare,
  MessagesSquare,
  Rocket,
  Settings,
  ShieldCheck,
  Sparkles,
  TrendingUp,
  UserRound,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useTeamSummary } from '../api/get-team-summary';
import { ActiveConversations } from './active-conversations';
import { StatCards } from './stat-cards';

interface QuickAction {
  label: string;
  description: string;
  to: string;
  icon: LucideIcon;
}

/** Quick Actions per role; the admin's four are spec part 1 §2.13's. */
export function quickActionsFor(role: Role): readonly QuickAction[] {
  switch (role) {
    case 'admin':
      return [
        { label: 'Start Chat', description: 'Open conversations', to: '/conversations', icon: MessagesSquare },
        { label: 'Settings', description: 'Admin settings', to: '/settings', icon: Settings },
        { label: 'My Stats', description: 'Insights and trends', to: '/insights', icon: TrendingUp },
        { label: 'Profile', description: 'Your account', to: '/profile', icon: UserRound },
      ];
    case 'manager':
      return [
        { label: 'Messages', description: 'Incoming messages', to: '/messages', icon: MessageSquare },
        { label: 'AI Agents', description: 'Agents and their settings', to: '/agents', icon: Bot },
        { label: 'Analytics', description: 'Team performance', to: '/analytics', icon: BarChart3 },
        { label: 'Profile', description: 'Your account', to: '/profile', icon: UserRound },
      ];
    case 'client':
      return [
        { label: 'My Conversations', description: 'Your customer conversations', to: '/conversations', icon: MessagesSquare },
        { label: 'AI Summary', description: 'What customers talk about', to: '/summary', icon: Sparkles },
        { label: 'My Profile', description: 'Your account', to: '/profile', icon: UserRound },
        { label: 'Notifications', description: 'Updates for you', to: '/notifications', icon: Bell },
      ];
  }
}

function greetingName(user: CurrentUser): string {
  if (user.name.trim() !== '') return user.name;
  return user.role === 'admin' ? 'Admin' : user.email;
}

function TeamCard() {
  const team = useTeamSummary(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users aria-hidden className="size-4 text-primary" />
          Team
        </CardTitle>
        <CardDescription>Accounts on this Parley installation.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {team.isPending ? (
          <Skeleton className="h-12" />
        ) : team.isError ? (
          <p className="text-sm text-muted-foreground">The user list could not be loaded.</p>
        ) : (
          <dl className="grid grid-cols-3 gap-3 text-center">
            {(
              [
                ['Admins', team.data.byRole.admin],
                ['Managers', team.data.byRole.manager],
                ['Clients', team.data.byRole.client],
              ] as const
            ).map(([label, count]) => (
              <div key={label} className="flex flex-col-reverse rounded-lg bg-muted/50 p-3">
                <dt className="text-xs text-muted-foreground">{label}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{count}</dd>
              </div>
            ))}
          </dl>
        )}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/admin/users">
              <ShieldCheck aria-hidden />
              Manage users
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link to="/admin/outbox">
              <Mail aria-hidden />
              Email outbox
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** Spec part 1 §2.13 (admins): the Content Management panel's way in — its three tabs on /admin. */
function ContentManagementCard() {
  const tabs = [
    { label: 'Blog Posts', to: '/admin' },
    { label: 'Page Content', to: '/admin?tab=content' },
    { label: 'N8N Integration', to: '/admin?tab=n8n' },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText aria-hidden className="size-4 text-primary" />
          Content Management
        </CardTitle>
        <CardDescription>The public site: blog posts, page sections, hero stats and contact messages.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {tabs.map((tab) => (
          <Button key={tab.to} asChild variant="outline" size="sm">
            <Link to={tab.to}>{tab.label}</Link>
          </Button>
        ))}
      </CardContent>
    </Card>
  );
}

/**
 * `inbox`: the inbox widget (spec part 1 §2.12); `aside`: cards of other features for the right
 * column (the client's AI agent). Both are composed in by the route.
 */
export function DashboardHome({ user, inbox, aside }: { user: CurrentUser; inbox?: ReactNode; aside?: ReactNode }) {
  const isAdmin = user.role === 'admin';
  return (
    <div className="grid gap-6">
      <section className="flex flex-col gap-4 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 className="text-2xl font-semibold tracking-tight">Welcome back, {greetingName(user)}</h2>
          <p className="text-sm text-muted-foreground">Here is where things stand.</p>
        </div>
        {isAdmin ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/admin/insights">
                <BarChart3 aria-hidden />
                Analytics
              </Link>
            </Button>
            <Button asChild>
              <Link to="/admin/automations">
                <Rocket aria-hidden />
                Deploy Agent
              </Link>
            </Button>
          </div>
        ) : null}
      </section>

      <StatCards />

      <div className="grid gap-6 lg:grid-cols-3">
        <ActiveConversations className="lg:col-span-2" showClient={user.role !== 'client'} />
        <div className="grid content-start gap-6">
          {aside}
          {isAdmin ? <TeamCard /> : null}
          {isAdmin ? <ContentManagementCard /> : null}
          {!user.mfaEnabled ? (
            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <ShieldCheck aria-hidden className="size-4 text-primary" />
                  Protect your account
                </CardTitle>
                <CardDescription>Turn on two-factor authentication so a password alone cannot open your account.</CardDescription>
              </CardHeader>
              <CardContent>
                <Button asChild variant="outline" size="sm">
                  <Link to="/profile?tab=security">Set up two-factor authentication</Link>
                </Button>
              </CardContent>
            </Card>
          ) : null}
        </div>
      </div>

      <section aria-labelledby="quick-actions-heading" className="grid gap-3">
        <h2 id="quick-actions-heading" className="text-lg font-semibold">
          Quick Actions
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {quickActionsFor(user.role).map((action) => (
            <li key={action.label}>
              <Link
                to={action.to}
                className="flex h-full items-center gap-3 rounded-xl border bg-card p-4 transition-colors hover:bg-accent"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15">
                  <action.icon aria-hidden className="size-5 text-primary" />
                </span>
                <span className="grid">
                  <span className="font-medium">{action.label}</span>
                  <span className="text-xs text-muted-foreground">{action.description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      {inbox}
    </div>
  );
}
