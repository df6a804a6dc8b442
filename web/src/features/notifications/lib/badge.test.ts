import { describe, expect, it } from 'vitest';
import { unreadBadgeText } from './badge';

describe('unreadBadgeText', () => {
  it('hides the badge when nothing is unread', () => {
    expect(unreadBadgeText(0)).toBeNull();
  });

  it('shows the real count', () => {
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(42)).toBe('42');
  });

  it('caps very large counts', () => {
    expect(unreadBadgeText(120)).toBe('99+');
  });
});
