import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders the allowed Markdown: headings, lists, quotes, code, emphasis, tables, rules', () => {
    const html = renderMarkdown(
      [
        '# Title',
        '## Section',
        '',
        'Some *em* and **strong** text with `code`.',
        '',
        '- one',
        '- two',
        '',
        '3. three',
        '',
        '> quoted',
        '',
        '```ts',
        'const x = 1 < 2;',
        '```',
        '',
        '| a | b |',
        '|:--|--:|',
        '| 1 | 2 |',
        '',
        '---',
        'line  ',
        'break',
      ].join('\n'),
    );
    for (const tag of ['<h1>Title</h1>', '<h2>Section</h2>', '<em>em</em>', '<strong>strong</strong>', '<code>code</code>', '<ul>', '<li>one</li>', '<ol start="3">', '<blockquote>', '<pre><code class="language-ts">const x = 1 &lt; 2;', '<table>', '<th align="left">a</th>', '<td align="right">2</td>', '<hr />', '<br />']) {
      expect(html).toContain(tag);
    }
  });

  it('opens external links in a new tab with rel="nofollow noopener noreferrer", and leaves mailto and relative links alone', () => {
    expect(renderMarkdown('[site](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer" target="_blank">site</a></p>\n',
    );
    expect(renderMarkdown('[plain](http://example.com)')).toContain('rel="nofollow noopener noreferrer" target="_blank"');
    expect(renderMarkdown('[mail](mailto:hello@parley.example)')).toBe('<p><a href="mailto:hello@parley.example">mail</a></p>\n');
    expect(renderMarkdown('[pricing](/services)')).toBe('<p><a href="/services">pricing</a></p>\n');
    // An author's own rel/target never survive.
    expect(renderMarkdown('<a href="/x" target="_top" rel="opener">x</a>')).toBe('<p><a href="/x">x</a></p>\n');
  });

  it('drops links with other schemes, protocol-relative links and short links (the text stays)', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).toBe('<p><a>x</a></p>\n');
    expect(renderMarkdown('[x](vbscript:msgbox)')).toBe('<p><a>x</a></p>\n');
    expect(renderMarkdown('[x](data:text/html,hi)')).toBe('<p><a>x</a></p>\n');
    expect(renderMarkdown('<a href="//evil.example/">x</a>')).toBe('<p><a>x</a></p>\n');
    expect(renderMarkdown('[x](https://bit.ly/abc)')).toBe('<p><a>x</a></p>\n');
  });

  it('keeps https images only', () => {
    expect(renderMarkdown('![logo](https://images.example/logo.png "Logo")')).toBe('<p><img src="https://images.example/logo.png" alt="logo" title="Logo" /></p>\n');
    expect(renderMarkdown('![a](http://images.example/a.png)')).toBe('<p></p>\n');
    expect(renderMarkdown('![a](/local.png)')).toBe('<p></p>\n');
    expect(renderMarkdown('![a](data:image/png;base64,AAAA)')).toBe('<p></p>\n');
  });

  it('removes tags and attributes outside the allowlist, keeping their text', () => {
    expect(renderMarkdown('<div style="color:red" onclick="x()"><span class="a">text</span></div>')).toBe('text');
    expect(renderMarkdown('<p onmouseover="x()" style="x" id="y">para</p>')).toBe('<p>para</p>');
    expect(renderMarkdown('<style>body{}</style>after')).toBe('after');
  });

  it('renders nothing for an empty body', () => {
    expect(renderMarkdown('')).toBe('');
    expect(renderMarkdown('  \n ')).toBe('');
  });
});
