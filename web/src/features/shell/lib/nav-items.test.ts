import { describe, expect, it } from 'vitest';
import { findPage } from '@common/routes';
import { ROLES } from '@common/roles';
import { findPageByLabel, isActiveLink, navItemsFor } from './nav-items';

const linksOf = (role: (typeof ROLES)[number]) => navItemsFor(role).map((item) => item.to);

describe('navItemsFor (spec part 1 §2.10)', () => {
  it('gives admins their eleven links in the table order', () => {
    expect(linksOf('admin')).toEqual([
      '/user/dashboard',
      '/admin/clients',
      '/clients',
      '/conversations',
      '/insights',
      '/admin/templates',
      '/admin/n8n-workflows',
      '/admin/zapier-zaps',
      '/admin/webhooks',
      '/automations',
      '/settings',
    ]);
    expect(navItemsFor('admin').slice(0, 3).map((item) => item.label)).toEqual(['Home', 'All Clients', 'Legacy Clients']);
  });

  it('gives managers home, messages, AI agents and analytics', () => {
    expect(linksOf('manager')).toEqual(['/user/dashboard', '/messages', '/agents', '/analytics']);
    expect(navItemsFor('manager')[2]?.label).toBe('AI Agents');
  });

  it('gives clients home, their conversations, profile and AI summary', () => {
    expect(navItemsFor('client').map((item) => [item.to, item.label])).toEqual([
      ['/user/dashboard', 'Home'],
      ['/conversations', 'My Conversations'],
      ['/profile', 'My Profile'],
      ['/summary', 'AI Summary'],
    ]);
  });

  it('links only to pages that exist and that the role may open', () => {
    for (const role of ROLES) {
      for (const to of linksOf(role)) {
        const page = findPage(to);
        expect(page, to).toBeDefined();
        const access = page?.route.access;
        if (Array.isArray(access)) expect(access).toContain(role);
      }
    }
  });
});

describe('findPageByLabel', () => {
  it('prefers a label that starts with the query', () => {
    expect(findPageByLabel('admin', 'set')?.to).toBe('/settings');
    expect(findPageByLabel('admin', 'user')?.to).toBe('/admin/users');
  });

  it('finds nothing for a blank query or a page the role lacks', () => {
    expect(findPageByLabel('client', '  ')).toBeUndefined();
    expect(findPageByLabel('client', 'outbox')).toBeUndefined();
  });
});

describe('isActiveLink', () => {
  it('treats both dashboard paths as Home', () => {
    expect(isActiveLink('/user/dashboard', '/dashboard')).toBe(true);
  });

  it('does not mark /admin/clients active on /clients', () => {
    expect(isActiveLink('/admin/clients', '/clients')).toBe(false);
  });
});
