import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SearchMatchText } from './conversation-list';

describe('SearchMatchText', () => {
  it('marks the matching words and shows markup from the customer as text, never as HTML', () => {
    const html = renderToStaticMarkup(
      <SearchMatchText
        match={{
          messageId: '00000000-0000-4000-8000-000000000001',
          segments: [
            { text: '<img src=x onerror=alert(1)> my ', match: false },
            { text: 'brakes', match: true },
            { text: ' squeal', match: false },
          ],
        }}
      />,
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; my </span>');
    expect(html).toMatch(/<mark [^>]*>brakes<\/mark>/u);
    expect(html).not.toContain('<img');
  });
});
