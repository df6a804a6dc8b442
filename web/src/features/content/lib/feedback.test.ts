import { describe, expect, it } from 'vitest';
import { conflictMessage } from '@common/api/content';
import { ApiError } from '@/lib/api-client';
import { BLOG_TOASTS, HERO_STAT_TOASTS, isConflict, postConflictText, readablePath, revisionKindText, sanitizedWarning, sectionConflictText } from './feedback';

describe('the content panel toasts', () => {
  it('uses the spec texts for posts and hero stats', () => {
    expect(BLOG_TOASTS).toEqual({
      created: { title: 'Post created', description: 'Blog post has been created successfully' },
      updated: { title: 'Post updated', description: 'Blog post has been updated successfully' },
      deleted: { title: 'Post deleted', description: 'Blog post has been deleted successfully' },
    });
    expect(HERO_STAT_TOASTS).toEqual({ updated: 'Stats Updated', reordered: 'Stats Reordered', hidden: 'Stat Hidden', shown: 'Stat Shown' });
  });

  it('warns which fields sanitising changed, heavily changed ones named apart', () => {
    expect(sanitizedWarning({ sanitized: [], heavilySanitized: [] })).toBeNull();
    const light = sanitizedWarning({ sanitized: ['heading'], heavilySanitized: [] });
    expect(light?.title).toBe('Saved with unsafe text removed');
    expect(light?.description).toContain('removed from heading.');
    const heavy = sanitizedWarning({ sanitized: ['badge', 'features.0.label'], heavilySanitized: ['features.0.label'] });
    expect(heavy?.title).toBe('Saved, but much of the text was removed');
    expect(heavy?.description).toContain('Much of the text was removed from features › 1 › label.');
    expect(heavy?.description).toContain('was removed from badge.');
  });

  it('reads field paths with 1-based positions', () => {
    expect(readablePath('data.services.0.features')).toBe('services › 1 › features');
  });

  it('recognises a conflict and shows the server’s message, else the contract’s', () => {
    const conflict = new ApiError('CONFLICT', 'Someone else saved the Hero content since you opened it. Reload to see their changes, then apply yours again.', 409);
    expect(isConflict(conflict)).toBe(true);
    expect(isConflict(new ApiError('VALIDATION_ERROR', 'Bad', 400))).toBe(false);
    expect(sectionConflictText('hero', conflict)).toBe(conflict.message);
    expect(sectionConflictText('about', new ApiError('CONFLICT', '', 409))).toBe(conflictMessage('about'));
    expect(postConflictText(new ApiError('CONFLICT', '', 409))).toMatch(/^Someone else saved this post/u);
  });

  it('names revision kinds', () => {
    expect(revisionKindText({ kind: 'save', restoredFrom: null })).toBe('Saved');
    expect(revisionKindText({ kind: 'reset', restoredFrom: null })).toBe('Reset to defaults');
    expect(revisionKindText({ kind: 'restore', restoredFrom: 3 })).toBe('Restored version 3');
  });
});
