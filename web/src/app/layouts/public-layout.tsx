import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { findPage } from '@common/routes';
import { Head } from '@/components/seo/head';
import { DemoChatWidget } from '@/features/marketing/components/demo-chat-widget';
import { PublicFooter } from '@/features/marketing/components/public-footer';
import { PublicNav, type PublicNavAccount } from '@/features/marketing/components/public-nav';
import { useSession } from '@/lib/session';
import { PUBLIC_PAGE_META } from '../meta/public-meta';
import { metaFor } from '../page-layouts';

// Only signed-in visitors load the bell, welcome line and sign-out (and with them the API client).
const SignedInNav = lazy(() => import('./signed-in-nav'));

export default function PublicLayout() {
  const session = useSession();
  const meta = metaFor(PUBLIC_PAGE_META, findPage(useLocation().pathname)?.name);
  let account: PublicNavAccount;
  if (session.status === 'loading') account = { status: 'loading' };
  else if (session.status === 'ready' && session.user !== null) {
    const user = session.user;
    account = {
      status: 'signed-in',
      render: (variant) => (
        <Suspense fallback={null}>
          <SignedInNav user={user} variant={variant} />
        </Suspense>
      ),
    };
  } else account = { status: 'signed-out' };

  return (
    <div className="flex min-h-dvh flex-col">
      {meta ? <Head title={meta.title} description={meta.description} /> : null}
      <PublicNav account={account} />
      <main className="flex-1">
        <Outlet />
      </main>
      <PublicFooter />
      <DemoChatWidget />
    </div>
  );
}
