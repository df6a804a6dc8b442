import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import { AccountDetails } from '@/features/profile/components/account-details';
import { AvatarPicker } from '@/features/profile/components/avatar-picker';
import { ChangePasswordForm } from '@/features/profile/components/change-password-form';
import { NotificationPreferencesCard } from '@/features/profile/components/notification-preferences-form';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { ProfileHeader } from '@/features/profile/components/profile-header';
import { SessionsCard } from '@/features/profile/components/sessions-card';
import { TwoFactorCard } from '@/features/profile/components/two-factor-card';
import { useCurrentUser } from '@/lib/session';

const TABS = ['profile', 'security', 'notifications', 'account'] as const;
type Tab = (typeof TABS)[number];

function isTab(value: string | null): value is Tab {
  return value !== null && (TABS as readonly string[]).includes(value);
}

export default function ProfileRoute() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'profile';

  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <ProfileHeader user={user} />
      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = new URLSearchParams(params);
          if (value === 'profile') next.delete('tab');
          else next.set('tab', value);
          setParams(next, { replace: true });
        }}
      >
        <TabsList>
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="security">Security</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
        </TabsList>
        <TabsContent value="profile" className="grid gap-6">
          <ProfileForm key={user.id} user={user} />
          <AvatarPicker user={user} />
        </TabsContent>
        <TabsContent value="security" className="grid gap-6">
          <ChangePasswordForm />
          <TwoFactorCard enabled={user.mfaEnabled} />
          <SessionsCard />
          <ApiKeysCard kind="personal" />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationPreferencesCard />
        </TabsContent>
        <TabsContent value="account">
          <AccountDetails user={user} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
