import { describe, expect, it } from 'vitest';
import { dotPlatform, formatConfidence, truncateText } from './messaging-format';

describe('messaging format', () => {
  it('shows AI confidence as a whole percentage, and "—" until the AI has answered', () => {
    expect(formatConfidence(0.873)).toBe('87%');
    expect(formatConfidence(1)).toBe('100%');
    expect(formatConfidence(0)).toBe('0%');
    expect(formatConfidence(null)).toBe('—');
    expect(formatConfidence(Number.NaN)).toBe('—');
  });

  it('cuts text at the limit without splitting an emoji', () => {
    expect(truncateText('short', 150)).toBe('short');
    expect(truncateText('a'.repeat(151), 150)).toBe(`${'a'.repeat(150)}…`);
    expect(truncateText('👍'.repeat(151), 150)).toBe(`${'👍'.repeat(150)}…`);
    expect(Array.from(truncateText('x'.repeat(500), 150))).toHaveLength(151);
  });

  it('shows Messenger with the facebook dot and gives website chat and API a neutral one', () => {
    expect(dotPlatform('messenger')).toBe('facebook');
    expect(dotPlatform('whatsapp')).toBe('whatsapp');
    expect(dotPlatform('webchat')).toBe('webchat');
  });
});
