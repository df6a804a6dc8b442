/**
 * Top navigation of the public pages (spec part 1 §2.3). Plain class strings and no UI kit. On the
 * server-rendered site the menu button and the signed-in account area are the site script's
 * (`data-island="menu-toggle"`, `data-account`): the markup works both ways.
 */
import { Menu, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '@/components/logo';

const LINKS = [
  { label: 'Services', to: '/services' },
  { label: 'About', to: '/about' },
  { label: 'Blog', to: '/blog' },
  { label: 'Contact', to: '/contact' },
] as const;

export type PublicNavAccount =
  | { status: 'loading' }
  | { status: 'signed-out' }
  /** Signed in: the bell, welcome line, Dashboard link and Sign Out, rendered by the app layer. */
  | { status: 'signed-in'; render: (variant: 'desktop' | 'mobile') => ReactNode };

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground ${isActive ? 'text-foreground' : 'text-muted-foreground'}`;

const primaryButton =
  'inline-flex h-9 items-center justify-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90';

export function PublicNav({ account }: { account: PublicNavAccount }) {
  const { pathname } = useLocation();
  // The mobile menu is open for the page it was opened on: navigating closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  const accountArea = (variant: 'desktop' | 'mobile') => {
    switch (account.status) {
      case 'loading':
        return null;
      case 'signed-out':
        return (
          <Link to="/login" className={`${primaryButton} ${variant === 'mobile' ? 'w-full' : ''}`}>
            Get Template
          </Link>
        );
      case 'signed-in':
        return account.render(variant);
    }
  };

  const navLinks = (
    <>
      {LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} className={linkClass}>
          {link.label}
        </NavLink>
      ))}
      <NavLink to="/client-signup" className={linkClass}>
        Get Started
      </NavLink>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {navLinks}
        </nav>
        <div className="hidden min-h-9 items-center gap-2 md:flex" data-account="desktop">
          {accountArea('desktop')}
        </div>
        <button
          type="button"
          className="inline-flex size-9 items-center justify-center rounded-md hover:bg-accent md:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls="mobile-menu"
          data-island="menu-toggle"
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          <Menu aria-hidden data-icon="open" className={`size-5 ${open ? 'hidden' : ''}`} />
          <X aria-hidden data-icon="close" className={`size-5 ${open ? '' : 'hidden'}`} />
        </button>
      </div>
      <div id="mobile-menu" hidden={!open} className="border-t px-4 pt-2 pb-4 md:hidden">
        <nav aria-label="Mobile" className="flex flex-col">
          {navLinks}
        </nav>
        <div className="mt-3 flex flex-col gap-2" data-account="mobile">
          {accountArea('mobile')}
        </div>
      </div>
    </header>
  );
}
