import { Outlet, useLocation } from 'react-router';
import { findPage } from '@common/routes';
import { Head } from '@/components/seo/head';
import { Logo } from '@/components/logo';
import { AUTH_PAGE_META } from '../meta/auth-meta';
import { metaFor } from '../page-layouts';
import { AppProviders } from '../providers/app-providers';

/** Sign in, sign up, forgot and reset password: one centred card. */
export default function AuthLayout() {
  const meta = metaFor(AUTH_PAGE_META, findPage(useLocation().pathname)?.name);
  return (
    <AppProviders>
      {meta ? <Head title={meta.title} description={meta.description} /> : null}
      <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-10">
        <Logo />
        <main className="w-full max-w-md">
          <Outlet />
        </main>
      </div>
    </AppProviders>
  );
}
