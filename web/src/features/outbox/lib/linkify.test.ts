import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify', () => {
  it('finds a reset link inside a sentence and leaves the full stop out', () => {
    expect(linkify('Reset it here: http://localhost:3000/reset-password?token=abc123. Thanks')).toEqual([
      { kind: 'text', text: 'Reset it here: ' },
      { kind: 'link', href: 'http://localhost:3000/reset-password?token=abc123', text: 'http://localhost:3000/reset-password?token=abc123' },
      { kind: 'text', text: '. Thanks' },
    ]);
  });

  it('keeps text without links whole', () => {
    expect(linkify('Hello\nthere')).toEqual([{ kind: 'text', text: 'Hello\nthere' }]);
  });

  it('ignores other schemes', () => {
    expect(linkify('javascript:alert(1) and ftp://x')).toEqual([{ kind: 'text', text: 'javascript:alert(1) and ftp://x' }]);
  });

  it('finds several links', () => {
    const parts = linkify('a https://a.example b https://b.example/x');
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.text)).toEqual(['https://a.example', 'https://b.example/x']);
  });
});
