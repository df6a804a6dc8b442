/**
 * A blog post's Markdown as HTML safe to put in a public page: marked renders it (GitHub-flavoured),
 * sanitize-html keeps only an allowlist. Raw HTML in the Markdown goes through the same allowlist;
 * script-like bodies never get here (refused by `markdownBody`, common/api/content.ts).
 *
 * - tags: headings, paragraphs, lists, blockquote, code and pre, em and strong, links, images,
 *   tables, hr, br — anything else is dropped (its text kept, except script/style/textarea);
 * - no attribute but href/title on links, src/alt/title on images, align on table cells and a
 *   `language-*` class on code: no event handler, no style;
 * - links: http(s), mailto or relative (no protocol-relative `//host`); an absolute http(s) link
 *   gets `rel="nofollow noopener noreferrer"` and `target="_blank"`; a short-link host
 *   (spec part 1 §5) loses its href (the text stays);
 * - images: https only (spec part 1 §5), others are removed.
 */
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { SHORT_LINK_HOSTS } from '../../../common/validation/sanitize';

const marked = new Marked({ gfm: true, breaks: false });

const EXTERNAL = /^https?:\/\//iu;
const EXTERNAL_REL = 'nofollow noopener noreferrer';

function isShortLink(href: string): boolean {
  if (!EXTERNAL.test(href)) return false;
  let host: string;
  try {
    host = new URL(href).hostname.toLowerCase();
  } catch {
    return false;
  }
  return SHORT_LINK_HOSTS.some((short) => host === short || host.endsWith(`.${short}`));
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'em', 'strong', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'br'],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
    ol: ['start'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Runs on every link, so rel and target are always ours, never the author's.
    a: (tagName, attribs) => {
      const { rel: _rel, target: _target, ...rest } = attribs;
      const href = (rest.href ?? '').trim();
      if (href !== '' && isShortLink(href)) {
        const { href: _href, ...withoutHref } = rest;
        return { tagName, attribs: withoutHref };
      }
      return { tagName, attribs: EXTERNAL.test(href) ? { ...rest, rel: EXTERNAL_REL, target: '_blank' } : rest };
    },
  },
  // An image without an https source (removed above, or relative) is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !/^https:\/\//iu.test(frame.attribs.src ?? ''),
};

/** HTML that passed the allowlist (for HTML written by hand, or a stored post's HTML checked again). */
export function sanitizeBodyHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** The Markdown rendered and sanitised, ready to store and serve. */
export function renderMarkdown(markdown: string): string {
  if (markdown.trim() === '') return '';
  return sanitizeBodyHtml(marked.parse(markdown, { async: false }));
}
