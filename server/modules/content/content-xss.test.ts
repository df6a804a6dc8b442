/**
 * Issue 15 §3 on both engines: the OWASP XSS filter-evasion vectors
 * (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html) and
 * Markdown-specific ones, sent as a section's text and as a blog post's Markdown body. Script-like
 * input (spec part 1 §5) is refused with the field's message; anything else is stored neutralised:
 * text without angle brackets, javascript:/vbscript:/non-image data: or event handlers, and HTML
 * with only allowlisted tags and attributes, no event handler and no URL but http(s), mailto or
 * relative — the same HTML the public read serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogPostDetail, ContentSectionView, PublicBlogPost, PublicContent, SavedSection } from '../../../common/api/content';
import { DEFAULT_HERO } from '../../../common/marketing/defaults';
import { looksLikeScript, SCRIPT_LIKE_MESSAGE } from '../../../common/validation/sanitize';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';

/** OWASP XSS Filter Evasion Cheat Sheet vectors, and a few of the same kind. */
export const XSS_VECTORS: readonly string[] = [
  `<script>alert('XSS')</script>`,
  `<SCRIPT SRC=https://xss.rocks/xss.js></SCRIPT>`,
  `<IMG SRC="javascript:alert('XSS');">`,
  `<IMG SRC=javascript:alert('XSS')>`,
  `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
  `<IMG SRC=javascript:alert(&quot;XSS&quot;)>`,
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  `<a onmouseover="alert(document.cookie)">xxs link</a>`,
  `<a onmouseover=alert(document.cookie)>xxs link</a>`,
  `<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>`,
  `<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>`,
  `<IMG SRC=# onmouseover="alert('xxs')">`,
  `<IMG SRC= onmouseover="alert('xxs')">`,
  `<IMG onmouseover="alert('xxs')">`,
  `<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`,
  `<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">`,
  `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
  `<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>`,
  `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
  `<IMG SRC="jav\tascript:alert('XSS');">`,
  `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0D;ascript:alert('XSS');">`,
  `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
  `<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`,
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  `<<SCRIPT>alert("XSS");//\\<</SCRIPT>`,
  `<SCRIPT SRC=http://xss.rocks/xss.js?< B >`,
  `<IMG SRC="\`<javascript:alert>\`('XSS')"`,
  `<iframe src=http://xss.rocks/scriptlet.html <`,
  `</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
  `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
  `<BODY BACKGROUND="javascript:alert('XSS')">`,
  `<IMG DYNSRC="javascript:alert('XSS')">`,
  `<IMG LOWSRC="javascript:alert('XSS')">`,
  `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
  `<svg/onload=alert('XSS')>`,
  `<svg><script>alert(1)</script></svg>`,
  `<BODY ONLOAD=alert('XSS')>`,
  `<BGSOUND SRC="javascript:alert('XSS');">`,
  `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
  `<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`,
  `<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">`,
  `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
  `<DIV STYLE="width: expression(alert('XSS'));">`,
  `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
  `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
  `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
  `<TABLE BACKGROUND="javascript:alert('XSS')">`,
  `<TABLE><TD BACKGROUND="javascript:alert('XSS')">`,
  `<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`,
  `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
  `<BASE HREF="javascript:alert('XSS');//">`,
  `<a href="jav&#x09;ascript:alert(1)">tab</a>`,
  `<a href="jav&#x0A;ascript:alert(1)">newline</a>`,
  `<a href="javas&#99;ript:alert(1)">entity</a>`,
  `<a href="&#x6a;avascript:alert(1)">hex</a>`,
  `<a href=" javascript:alert(1)">space</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>`,
  `<a href="vbscript:msgbox('XSS')">vb</a>`,
  `<a href="//evil.example/">protocol-relative</a>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
  `<details open ontoggle=alert(1)>`,
  `<form action="javascript:alert(1)"><button>go</button></form>`,
  `<scr<script>ipt>alert(1)</scr</script>ipt>`,
  `<img src=x onerror=alert(1)//`,
  // Markdown's own ways to make links and images.
  `[click](javascript:alert(1))`,
  `[click](JaVaScRiPt:alert(1))`,
  `[click](&#106;avascript:alert(1))`,
  `[click](java\tscript:alert(1))`,
  `[click]( javascript:alert(1) )`,
  `[click](<javascript:alert(1)>)`,
  `[click](vbscript:alert(1))`,
  `[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  `![img](javascript:alert(1))`,
  `![img](https://i.example/a.png"onerror="alert(1))`,
  `<javascript:alert(1)>`,
  `[ref][x]\n\n[x]: javascript:alert(1)`,
];

const ALLOWED_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'em', 'strong', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'br']);
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'rel', 'target', 'src', 'alt', 'align', 'class', 'start']);

/** An attribute value as a browser reads it: entities decoded, then the characters URL parsing drops. */
function urlAsRead(value: string): string {
  const decoded = value
    .replace(/&#x([0-9a-f]+);?/giu, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/gu, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(amp|quot|lt|gt|apos|colon|tab|newline);/giu, (_, name: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", colon: ':', tab: '\t', newline: '\n' })[name.toLowerCase()] ?? '');
  // eslint-disable-next-line no-control-regex -- browsers drop these inside a URL's scheme
  return decoded.replace(/[\u0000-\u0020\u007f]+/gu, '').toLowerCase();
}

/** Fails with the reason when the HTML could run anything. */
function expectInertHtml(html: string, vector: string): void {
  const where = `${JSON.stringify(vector)} → ${JSON.stringify(html)}`;
  for (const [, tag, attributes = ''] of html.matchAll(/<\/?\s*([a-z0-9]+)([^>]*)>/giu)) {
    expect(ALLOWED_TAGS.has(tag!.toLowerCase()), `tag <${tag}> in ${where}`).toBe(true);
    for (const [, name, value = ''] of attributes.matchAll(/([^\s=/"']+)(?:\s*=\s*"([^"]*)")?/gu)) {
      const attribute = name!.toLowerCase();
      expect(ALLOWED_ATTRIBUTES.has(attribute), `attribute ${attribute} in ${where}`).toBe(true);
      if (attribute === 'href' || attribute === 'src') {
        const url = urlAsRead(value);
        const scheme = /^([a-z][a-z0-9+.-]*):/u.exec(url)?.[1];
        expect(scheme === undefined || ['http', 'https', 'mailto'].includes(scheme), `URL ${value} in ${where}`).toBe(true);
        expect(url.startsWith('//'), `protocol-relative URL in ${where}`).toBe(false);
        if (attribute === 'src') expect(url.startsWith('https://'), `image ${value} in ${where}`).toBe(true);
      }
    }
  }
  expect(html, where).not.toMatch(/<\s*(script|iframe|svg|object|embed|style|meta|base|link|form|input|body|frame|math|details)\b/iu);
  // Event handlers inside tags (escaped text such as `&lt;img onerror=…&gt;` is only text).
  for (const [tag] of html.matchAll(/<[^>]*>/gu)) expect(tag.replace(/"[^"]*"/gu, '""'), where).not.toMatch(/\son[a-z]+\s*=/iu);
}

/** A text field as stored: none of the patterns spec part 1 §5 removes. */
function expectInertText(text: string, vector: string): void {
  const where = `${JSON.stringify(vector)} → ${JSON.stringify(text)}`;
  expect(text, where).not.toMatch(/[<>]/u);
  expect(text, where).not.toMatch(/javascript\s*:|vbscript\s*:|\bon[a-z]{3,}\s*=|expression\s*\(|data:(?!image\/)/iu);
}

describe('the XSS vectors', () => {
  it('are at least 30, and some of them are script-like while others are not', () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(30);
    expect(XSS_VECTORS.filter(looksLikeScript).length).toBeGreaterThan(10);
    expect(XSS_VECTORS.filter((v) => !looksLikeScript(v)).length).toBeGreaterThan(30);
  });
});

describe.each(ENGINES)('XSS filter-evasion vectors (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('in page content text: refused when script-like, else stored neutralised — and so shown on the public read', async () => {
    let version = 0;
    let refused = 0;
    for (const vector of XSS_VECTORS) {
      const answer = await admin.put('/api/v1/content/hero', { version, data: { ...DEFAULT_HERO, description: vector, badge: vector.slice(0, 200) } });
      if (looksLikeScript(vector)) {
        expect(answer.statusCode, vector).toBe(400);
        expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields['data.description']).toBe(SCRIPT_LIKE_MESSAGE);
        refused++;
        continue;
      }
      // A vector made only of removed patterns leaves nothing: a required field, refused as missing.
      if (answer.statusCode === 400) {
        expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields['data.description'], vector).toBe('Description is required');
        continue;
      }
      const saved = expectJson<SavedSection>(answer, 200);
      version = saved.section.version;
      expectInertText(saved.section.data.description as string, vector);
      expectInertText(saved.section.data.badge as string, vector);
      // Reported as sanitised exactly when sanitising changed it.
      expect(saved.sanitized.includes('data.description'), vector).toBe(saved.section.data.description !== vector.trim());
      const stored = await app.database.db.selectFrom('contentSections').select('data').where('section', '=', 'hero').executeTakeFirstOrThrow();
      expectInertText(stored.data.description as string, vector);
      const shown = expectJson<PublicContent>(await app.client().get('/api/v1/public/content'), 200);
      expect(shown.hero.description).toBe(saved.section.data.description);
    }
    expect(refused).toBeGreaterThan(10);
    const sections = expectJson<{ sections: ContentSectionView[] }>(await admin.get('/api/v1/content'), 200).sections;
    expect(sections.find((s) => s.section === 'hero')!.version).toBe(version);
  });

  it('in blog post text fields: refused or neutralised', async () => {
    for (const [i, vector] of XSS_VECTORS.entries()) {
      const answer = await admin.post('/api/v1/blog-posts', {
        title: `Vector ${i}`,
        excerpt: vector.slice(0, 500),
        author: 'QA',
        date: 'Today',
        readTime: '1 min read',
        category: 'Security',
        image: 'https://images.example/a.png',
        slug: `text-vector-${i}`,
      });
      if (looksLikeScript(vector.slice(0, 500))) {
        expect(answer.statusCode, vector).toBe(400);
        expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields.excerpt).toBe(SCRIPT_LIKE_MESSAGE);
      } else if (answer.statusCode === 400) {
        expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields.excerpt, vector).toBe('Excerpt is required');
      } else {
        expectInertText(expectJson<BlogPostDetail>(answer, 201).excerpt, vector);
      }
    }
  });

  it('in Markdown bodies: refused when script-like, else rendered HTML with nothing that runs — the same HTML served publicly', async () => {
    let rendered = 0;
    for (const [i, vector] of XSS_VECTORS.entries()) {
      for (const [j, body] of [vector, `Intro paragraph.\n\n${vector}\n\n- item ${vector}`].entries()) {
        const slug = `vector-${i}-${j}`;
        const answer = await admin.post('/api/v1/blog-posts', {
          title: `Vector ${i}.${j}`,
          excerpt: 'An XSS vector',
          author: 'QA',
          date: 'Today',
          readTime: '1 min read',
          category: 'Security',
          image: 'https://images.example/a.png',
          body,
          slug,
          status: 'published',
        });
        if (looksLikeScript(body)) {
          expect(answer.statusCode, body).toBe(400);
          expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields.body).toBe(SCRIPT_LIKE_MESSAGE);
          continue;
        }
        const post = expectJson<BlogPostDetail>(answer, 201);
        expectInertHtml(post.bodyHtml, body);
        const served = expectJson<PublicBlogPost>(await app.client().get(`/api/v1/public/blog-posts/${slug}`), 200);
        expect(served.bodyHtml).toBe(post.bodyHtml);
        const preview = expectJson<{ html: string }>(await admin.post('/api/v1/blog-posts/preview', { body }), 200);
        expect(preview.html).toBe(post.bodyHtml);
        rendered++;
      }
    }
    expect(rendered).toBeGreaterThan(60);
  });

  it('the check itself catches what it is meant to catch', () => {
    const fails = (html: string) => expect(() => expectInertHtml(html, 'self-test')).toThrow();
    fails('<p onclick="x()">a</p>');
    fails('<a href="javascript:alert(1)">a</a>');
    fails('<a href="jav&#x09;ascript:alert(1)">a</a>');
    fails('<a href="data:text/html,x">a</a>');
    fails('<img src="http://x.example/a.png" />');
    fails('<a href="//evil.example/">a</a>');
    fails('<svg></svg>');
    fails('<script>alert(1)</script>');
    expectInertHtml('<p><a href="https://x.example/" rel="nofollow noopener noreferrer" target="_blank">ok</a><img src="https://i.example/a.png" alt="a" /></p>', 'self-test');
  });
});
