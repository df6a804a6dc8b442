import { useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PRERENDERED } from '@common/prerender';
import { findPage } from '@common/routes';
import { Head } from '@/components/seo/head';
import { Logo } from '@/components/logo';
import { AUTH_PAGE_META } from '../meta/auth-meta';
import { metaFor } from '../page-layouts';
import { AppProviders } from '../providers/app-providers';

/** The auth pages' frame: the logo above one centred card. Also pre-rendered by the server (../site/render.tsx). */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-10">
      <Logo />
      <main className="w-full max-w-md">{children}</main>
    </div>
  );
}

/** Sign in, sign up, forgot and reset password: one centred card. */
export default function AuthLayout() {
  const meta = metaFor(AUTH_PAGE_META, findPage(useLocation().pathname)?.name);
  // The app has taken over a page the server pre-rendered (main.tsx): say so. The typing handed over
  // (lib/prerender-handoff.ts) waits for it, as do the browser tests.
  useEffect(() => document.getElementById('root')?.removeAttribute(PRERENDERED), []);
  return (
    <AppProviders>
      {meta ? <Head title={meta.title} description={meta.description} /> : null}
      <AuthFrame>
        <Outlet />
      </AuthFrame>
    </AppProviders>
  );
}
