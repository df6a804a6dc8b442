import { KeyRound, Mail, ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ActiveSessions } from './active-sessions';
import { AuditLog } from './audit-log';
import { NotificationSettings } from './notification-settings';
import { SecuritySettingsCard } from './security-settings-form';

function LinkCard({ to, icon: Icon, title, children }: { to: string; icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <Link to={to} className="flex items-start gap-3 rounded-xl border bg-card p-4 transition-colors hover:bg-accent">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15">
        <Icon aria-hidden className="size-5 text-primary" />
      </span>
      <span className="grid gap-0.5">
        <span className="font-medium">{title}</span>
        <span className="text-sm text-muted-foreground">{children}</span>
      </span>
    </Link>
  );
}

const TABS = ['customers', 'n8n', 'agents', 'notifications', 'security'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => value !== null && (TABS as readonly string[]).includes(value);

/**
 * Admin Settings and Configuration (spec part 1 §2.17). The open tab is `?tab=` so other pages can
 * link to one; `customers`, `agents` and `n8n` are the Customer Management, AI Agents and n8n
 * Integration tabs' content, and `serviceKeys` the Security tab's service-account API keys,
 * composed in by the route. Notifications and Security are this feature's (docs/admin-settings.md).
 */
export function AdminSettings({
  customers,
  agents,
  n8n,
  serviceKeys,
}: {
  customers?: ReactNode;
  agents: ReactNode;
  n8n: ReactNode;
  serviceKeys?: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'customers';
  return (
    <Tabs
      value={tab}
      onValueChange={(value) => {
        const next = new URLSearchParams(params);
        if (value === 'customers') next.delete('tab');
        else next.set('tab', value);
        setParams(next, { replace: true });
      }}
    >
      <TabsList>
        <TabsTrigger value="customers">Customer Management</TabsTrigger>
        <TabsTrigger value="n8n">n8n Integration</TabsTrigger>
        <TabsTrigger value="agents">AI Agents</TabsTrigger>
        <TabsTrigger value="notifications">Notifications</TabsTrigger>
        <TabsTrigger value="security">Security</TabsTrigger>
      </TabsList>
      {/* A tab not built yet says so and nothing else (docs/DECISIONS.md "Screens not built yet"). */}
      <TabsContent value="customers">{customers ?? <EmptyState icon={Users} title="Customer Management is not available yet." />}</TabsContent>
      <TabsContent value="n8n">{n8n}</TabsContent>
      <TabsContent value="agents">{agents}</TabsContent>
      <TabsContent value="notifications">
        <NotificationSettings />
      </TabsContent>
      <TabsContent value="security" className="grid gap-6">
        <SecuritySettingsCard />
        <ActiveSessions />
        <AuditLog />
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck aria-hidden className="size-4 text-primary" />
              Accounts
            </CardTitle>
            <CardDescription>Accounts, roles and the e-mails Parley sends.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3 md:grid-cols-3">
            <LinkCard to="/admin/users" icon={Users} title="User Management">
              Create users and change their roles.
            </LinkCard>
            <LinkCard to="/admin/outbox" icon={Mail} title="Email Outbox">
              Verification and password reset e-mails.
            </LinkCard>
            <LinkCard to="/profile?tab=security" icon={KeyRound} title="Your Account Security">
              Your password, sessions, two-factor authentication and API keys.
            </LinkCard>
          </CardContent>
        </Card>
        {serviceKeys}
      </TabsContent>
    </Tabs>
  );
}
