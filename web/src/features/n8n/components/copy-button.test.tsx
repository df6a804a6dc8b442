import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CopyButtonView, CopyValue } from './copy-button';

describe('copy buttons', () => {
  it('show a copy icon, then a check mark while copied', () => {
    const idle = renderToStaticMarkup(<CopyButtonView label="Copy Parley base URL" copied={false} />);
    expect(idle).toContain('lucide-copy');
    expect(idle).toContain('aria-label="Copy Parley base URL"');
    const copied = renderToStaticMarkup(<CopyButtonView label="Copy Parley base URL" copied />);
    expect(copied).toContain('lucide-check');
    expect(copied).not.toContain('lucide-copy');
    expect(copied).toContain('data-copied="true"');
  });

  it('a long value wraps instead of widening the page', () => {
    const html = renderToStaticMarkup(<CopyValue label="Status endpoint (PATCH)" value={`https://parley.example.com/${'a'.repeat(200)}`} />);
    expect(html).toContain('break-all');
    expect(html).toContain('aria-label="Copy Status endpoint (PATCH)"');
  });
});
