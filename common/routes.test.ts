import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from './roles';
import { canOpen, findPage, PAGE_ROUTES } from './routes';

describe('page table', () => {
  it.each([
    ['/auth/sign-in', '/login', 'signIn'],
    ['/auth/sign-up', '/register', 'signUp'],
    ['/auth/forgot-password', '/forgot-password', 'forgotPassword'],
    ['/auth/reset-password', '/reset-password', 'resetPassword'],
    ['/our-services', '/services', 'services'],
    ['/about-us', '/about', 'about'],
    ['/contact-us', '/contact', 'contact'],
    ['/error/unauthorized', '/unauthorized', 'unauthorized'],
    ['/admin', '/admin/dashboard', 'adminDashboard'],
    ['/admin/production-status', '/production-readiness', 'productionStatus'],
    ['/admin/templates', '/templates', 'adminTemplates'],
    ['/admin/n8n-workflows', '/n8n', 'adminN8n'],
    ['/admin/zapier-zaps', '/zapier', 'adminZapier'],
    ['/dashboard', '/user/dashboard', 'dashboard'],
  ])('finds the same page at both aliases %s and %s', (a, b, name) => {
    expect(findPage(a)?.name).toBe(name);
    expect(findPage(b)?.name).toBe(name);
  });

  it('ignores a trailing slash', () => {
    expect(findPage('/login/')?.name).toBe('signIn');
    expect(findPage('/')?.name).toBe('home');
  });

  it('knows nothing of unknown paths, near misses included', () => {
    for (const path of ['/nope', '/login/extra', '/admin/unknown', '/Login', '/loginx', '//login']) {
      expect(findPage(path), path).toBeUndefined();
    }
  });

  it('keeps the spec part 1 §2.2 admin-only pages admin-only', () => {
    for (const path of ['/admin', '/admin/conversations', '/admin/insights', '/admin/webhooks', '/admin/automations', '/admin/clients']) {
      expect(findPage(path)?.route.access).toEqual(['admin']);
    }
  });

  it('no path belongs to two pages', () => {
    const all = Object.values(PAGE_ROUTES).flatMap((r) => r.paths);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('canOpen', () => {
  it('lets anyone open a public page', () => {
    expect(canOpen('public', null)).toBe(true);
    for (const role of ROLES) expect(canOpen('public', role)).toBe(true);
  });

  it('needs someone signed in for a signed-in page, whatever the role', () => {
    expect(canOpen('signed-in', null)).toBe(false);
    for (const role of ROLES) expect(canOpen('signed-in', role)).toBe(true);
  });

  it('needs one of the listed roles for a role page', () => {
    const staff: readonly Role[] = ['admin', 'manager'];
    expect(canOpen(staff, null)).toBe(false);
    expect(canOpen(staff, 'admin')).toBe(true);
    expect(canOpen(staff, 'manager')).toBe(true);
    expect(canOpen(staff, 'client')).toBe(false);
    expect(canOpen(['admin'], 'manager')).toBe(false);
  });
});
