/**
 * Page content and hero stats over HTTP on both engines (issue 15 §1, §2; spec part 2 "Content
 * management", §3, §8; part 1 §3, §5, §7): defaults until saved, every validation text keyed by
 * its path, sanitising with its report, optimistic concurrency (a stale save is a 409 and stores
 * nothing; of concurrent saves exactly one wins), revisions with reset and restore, the hero
 * stats' calls with reorders under concurrency, the public read with its validators, and access.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conflictMessage,
  CONTENT_SECTIONS,
  type ContentSectionKey,
  type ContentSectionView,
  HERO_STATS_MAX,
  type HeroStat,
  INTEGRATION_NAMES,
  type PublicContent,
  type SavedSection,
  slugFromTitle,
} from '../../../common/api/content';
import { DEFAULT_ABOUT, DEFAULT_BLOG_PAGE, DEFAULT_CONTACT, DEFAULT_CONTENT, DEFAULT_HERO, DEFAULT_HERO_STATS, DEFAULT_SERVICES, SAMPLE_POSTS } from '../../../common/marketing/defaults';
import { SCRIPT_LIKE_MESSAGE } from '../../../common/validation/sanitize';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';
import { BlogPostsService } from './blog-posts.service';
import { ContentRepository } from './content.repository';
import { ContentService, liveIntegrations } from './content.service';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string>; details?: Record<string, unknown> };
}

describe('liveIntegrations', () => {
  it('maps the channel adapters to the Features page integrations, with n8n and Zapier', () => {
    expect(liveIntegrations(['webchat', 'api'])).toEqual(['website', 'custom', 'n8n', 'zapier']);
    expect(liveIntegrations(['whatsapp', 'instagram', 'messenger'], [])).toEqual(['whatsapp', 'instagram', 'messenger']);
  });
});

describe.each(ENGINES)('page content (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let adminId: string;

  const sections = async () => expectJson<{ sections: ContentSectionView[] }>(await admin.get('/api/v1/content'), 200).sections;
  const section = async (key: ContentSectionKey) => (await sections()).find((s) => s.section === key)!;
  const save = (key: ContentSectionKey, version: number, data: unknown) => admin.put(`/api/v1/content/${key}`, { version, data });
  const revisions = async (key: ContentSectionKey) =>
    expectJson<{ revisions: { id: string; version: number; kind: string; restoredFrom: number | null; createdBy: { id: string } | null }[] }>(
      await admin.get(`/api/v1/content/${key}/revisions`),
      200,
    ).revisions;
  const stats = async () => expectJson<{ stats: HeroStat[] }>(await admin.get('/api/v1/content/hero-stats'), 200).stats;
  const publicContent = async () => expectJson<PublicContent>(await app.client().get('/api/v1/public/content'), 200);
  const storedRow = (key: ContentSectionKey) => app.database.db.selectFrom('contentSections').selectAll().where('section', '=', key).executeTakeFirst();

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    const signedIn = await signedInClient(app, 'admin', { name: 'Ada Admin' });
    admin = signedIn.client;
    adminId = signedIn.userId;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('reads every section as its defaults with version 0 until one is saved, and stores none', async () => {
    const all = await sections();
    expect(all.map((s) => s.section)).toEqual([...CONTENT_SECTIONS]);
    for (const s of all) {
      expect(s).toMatchObject({ version: 0, updatedAt: null, updatedBy: null });
      expect(s.data).toEqual(DEFAULT_CONTENT[s.section]);
    }
    expect(await app.database.db.selectFrom('contentSections').selectAll().execute()).toEqual([]);
  });

  it('a new installation has the four default hero stats, shown, in order', async () => {
    const list = await stats();
    expect(list.map((s) => ({ number: s.number, label: s.label, order: s.order, isActive: s.isActive }))).toEqual(
      DEFAULT_HERO_STATS.map((s, i) => ({ ...s, order: i, isActive: true })),
    );
    expect((await publicContent()).heroStats).toEqual(DEFAULT_HERO_STATS);
  });

  it('saves a section as the next version with a revision, and the public content shows it', async () => {
    const saved = expectJson<SavedSection>(await save('hero', 0, { ...DEFAULT_HERO, heading: 'Replies in seconds' }), 200);
    expect(saved.section).toMatchObject({ section: 'hero', version: 1, updatedBy: { id: adminId, name: 'Ada Admin' } });
    expect(saved.section.data.heading).toBe('Replies in seconds');
    expect(saved).toMatchObject({ sanitized: [], heavilySanitized: [] });
    expect((await storedRow('hero'))?.version).toBe(1);
    expect(await revisions('hero')).toMatchObject([{ version: 1, kind: 'save', restoredFrom: null, createdBy: { id: adminId } }]);
    expect((await publicContent()).hero.heading).toBe('Replies in seconds');

    const next = expectJson<SavedSection>(await save('hero', 1, { ...DEFAULT_HERO, heading: 'Replies in a second' }), 200);
    expect(next.section.version).toBe(2);
    expect((await revisions('hero')).map((r) => r.version)).toEqual([2, 1]);
  });

  it('refuses a save made on an older version with 409 and the conflict message, storing nothing', async () => {
    const before = await section('hero');
    const stale = await save('hero', 1, { ...DEFAULT_HERO, heading: 'Overwritten?' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>().error).toMatchObject({ code: 'CONFLICT', message: conflictMessage('hero'), details: { version: before.version } });
    expect(conflictMessage('hero')).toBe('Someone else saved the Hero content since you opened it. Reload to see their changes, then apply yours again.');
    // A first save of a section someone already saved is stale too.
    expect((await save('hero', 0, DEFAULT_HERO)).statusCode).toBe(409);
    expect(await section('hero')).toEqual(before);
    expect((await revisions('hero')).length).toBe(before.version);
  });

  it('of saves made on the same version at once, exactly one wins (first save and later saves)', async () => {
    for (const version of [0, 1, 2]) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => save('about', version, { ...DEFAULT_ABOUT, mission: `Mission ${version}.${i}` })),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = answers.find((a) => a.statusCode === 200)!.json<SavedSection>();
      expect(winner.section.version).toBe(version + 1);
      const stored = await storedRow('about');
      expect(stored).toMatchObject({ version: version + 1, data: { mission: winner.section.data.mission } });
    }
    expect((await revisions('about')).map((r) => r.version)).toEqual([3, 2, 1]);
  });

  describe('validation', () => {
    const remove = Symbol('remove');
    /** [section, what, path to change, new value (or remove), the field reported, its message] */
    const cases: [ContentSectionKey, string, readonly (string | number)[], unknown, string, string][] = [
      ['hero', 'badge', ['badge'], ' ', 'data.badge', 'Badge is required'],
      ['hero', 'heading', ['heading'], remove, 'data.heading', 'Heading is required'],
      ['hero', 'subheading', ['subheading'], '', 'data.subheading', 'Subheading is required'],
      ['hero', 'description', ['description'], '', 'data.description', 'Description is required'],
      ['hero', 'primary button', ['ctaPrimary'], '', 'data.ctaPrimary', 'Primary button text is required'],
      ['hero', 'secondary button', ['ctaSecondary'], '', 'data.ctaSecondary', 'Secondary button text is required'],
      ['hero', 'social proof', ['socialProof'], '', 'data.socialProof', 'Social proof is required'],
      ['hero', 'feature label', ['features', 1, 'label'], '', 'data.features.1.label', 'Feature label is required'],
      ['hero', 'three chips', ['features'], DEFAULT_HERO.features.slice(0, 2), 'data.features', 'The hero has exactly 3 feature chips'],
      ['hero', 'feature icon', ['features', 0, 'icon'], 'rocket', 'data.features.0.icon', 'Invalid option: expected one of "channels"|"agents"|"automation"'],
      ['hero', 'too long', ['heading'], 'x'.repeat(201), 'data.heading', 'Must be at most 200 characters'],
      ['hero', 'button too long', ['ctaPrimary'], 'x'.repeat(61), 'data.ctaPrimary', 'Must be at most 60 characters'],
      ['hero', 'script', ['heading'], 'Hi <script>alert(1)</script>', 'data.heading', SCRIPT_LIKE_MESSAGE],
      ['hero', 'iframe', ['features', 0, 'label'], '<iframe src=x>', 'data.features.0.label', SCRIPT_LIKE_MESSAGE],
      ['hero', 'only removed text', ['socialProof'], '<> javascript:', 'data.socialProof', 'Social proof is required'],
      ['services', 'six cards', ['services'], DEFAULT_SERVICES.services.slice(0, 5), 'data.services', 'There are exactly 6 service cards'],
      ['services', 'title', ['services', 2, 'title'], '', 'data.services.2.title', 'Title is required'],
      ['services', 'description', ['services', 0, 'description'], '', 'data.services.0.description', 'Description is required'],
      ['services', 'features', ['services', 0, 'features'], ['', '  '], 'data.services.0.features', 'At least one feature is required'],
      ['services', 'feature lines', ['services', 0, 'features'], Array.from({ length: 21 }, () => 'x'), 'data.services.0.features', 'At most 20 lines'],
      ['services', 'price', ['services', 5, 'price'], '', 'data.services.5.price', 'Price is required'],
      ['services', 'id', ['services', 0, 'id'], 'Not OK', 'data.services.0.id', 'Use lowercase letters, digits and hyphens'],
      ['services', 'popular', ['services', 1, 'popular'], 'yes', 'data.services.1.popular', 'Invalid input: expected boolean, received string'],
      ['blog', 'title', ['title'], '', 'data.title', 'Title is required'],
      ['blog', 'subtitle', ['subtitle'], '', 'data.subtitle', 'Subtitle is required'],
      ['blog', 'categories', ['categories'], [''], 'data.categories', 'At least one category is required'],
      ['blog', 'newsletter title', ['newsletterTitle'], '', 'data.newsletterTitle', 'Newsletter title is required'],
      ['blog', 'newsletter description', ['newsletterDescription'], '', 'data.newsletterDescription', 'Newsletter description is required'],
      ['about', 'mission', ['mission'], '', 'data.mission', 'Mission is required'],
      ['about', 'description', ['description'], '', 'data.description', 'Description is required'],
      ['about', 'three values', ['values'], [...DEFAULT_ABOUT.values, { title: 'x', description: 'y' }], 'data.values', 'There are exactly 3 values'],
      ['about', 'value title', ['values', 0, 'title'], '', 'data.values.0.title', 'Title is required'],
      ['about', 'value description', ['values', 2, 'description'], '', 'data.values.2.description', 'Description is required'],
      ['about', 'four stats', ['stats'], DEFAULT_ABOUT.stats.slice(0, 3), 'data.stats', 'There are exactly 4 stats'],
      ['about', 'stat number', ['stats', 3, 'number'], '', 'data.stats.3.number', 'Number is required'],
      ['about', 'stat label', ['stats', 0, 'label'], '', 'data.stats.0.label', 'Label is required'],
      ['contact', 'e-mail', ['email'], '', 'data.email', 'Email is required'],
      ['contact', 'e-mail format', ['email'], 'not-an-address', 'data.email', 'Please enter a valid email address'],
      ['contact', 'e-mail length', ['email'], `${'a'.repeat(250)}@x.io`, 'data.email', 'Email is too long'],
      ['contact', 'phone', ['phone'], '', 'data.phone', 'Phone is required'],
      ['contact', 'address', ['address'], '', 'data.address', 'Address is required'],
      ['contact', 'hours', ['hours', 'sunday'], '', 'data.hours.sunday', 'Hours are required (write "Closed" for a closed day)'],
      ['features', 'status', ['integrationOverrides', 'n8n'], 'Soon', 'data.integrationOverrides.n8n', 'Invalid option: expected one of "Live"|"Beta"|"Coming Soon"'],
    ];

    /** The document with the value at `path` replaced (or removed). */
    function changed(document: Record<string, unknown>, path: readonly (string | number)[], value: unknown): Record<string, unknown> {
      const copy = structuredClone(document);
      let target = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
      const last = path.at(-1)!;
      if (value === remove) delete target[last];
      else target[last] = value;
      return copy;
    }

    it.each(cases)('%s %s: 400 with the field message, nothing stored', async (key, _name, path, value, field, message) => {
      const before = await section(key);
      const answer = await save(key, before.version, changed(before.data, path, value));
      expect(answer.statusCode).toBe(400);
      const { error } = answer.json<ErrorBody>();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.fields?.[field]).toBe(message);
      expect(await section(key)).toEqual(before);
    });

    it('refuses a document that is not an object, an unknown section and a missing version', async () => {
      const notObject = await save('blog', 0, 'hello');
      expect(notObject.statusCode).toBe(400);
      expect(Object.keys(notObject.json<ErrorBody>().error.fields ?? {})).toEqual(['data']);
      const unknown = await save('pricing' as ContentSectionKey, 0, {});
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<ErrorBody>().error.fields).toEqual({ section: 'Unknown content section' });
      const noVersion = await admin.put('/api/v1/content/blog', { data: DEFAULT_BLOG_PAGE });
      expect(noVersion.statusCode).toBe(400);
      expect(noVersion.json<ErrorBody>().error.fields).toEqual({ version: 'version is required' });
    });
  });

  it('sanitises what it stores and reports the fields it changed, heavily or not, by their path in the request', async () => {
    const before = await section('services');
    const data = structuredClone(DEFAULT_SERVICES);
    data.services[0]!.title = 'Fast <b>replies</b> for every customer';
    data.services[1]!.description = 'javascript:vbscript:onclick= x';
    data.services[2]!.features = ['First', '', '  ', 'Second <i>', 'Third'];
    const saved = expectJson<SavedSection>(await save('services', before.version, data), 200);
    const cards = saved.section.data.services as { title: string; description: string; features: string[] }[];
    expect(cards[0]!.title).toBe('Fast breplies/b for every customer');
    expect(cards[1]!.description).toBe('x');
    expect(cards[2]!.features).toEqual(['First', 'Second i', 'Third']);
    expect(saved.sanitized.sort()).toEqual(['data.services.0.title', 'data.services.1.description', 'data.services.2.features.3']);
    expect(saved.heavilySanitized).toEqual(['data.services.1.description']);
    expect(JSON.stringify((await storedRow('services'))?.data)).not.toMatch(/[<>]|javascript:|vbscript:|onclick=/iu);
  });

  it('Reset to Defaults stores the defaults as the next version; the hero reset also puts back the default hero stats', async () => {
    expectJson(await admin.put('/api/v1/content/hero-stats', { stats: [{ number: '1', label: 'One' }, { number: '2', label: 'Two', isActive: false }] }), 200);
    const hero = await section('hero');
    expect(hero.data).not.toEqual(DEFAULT_HERO);

    const stale = await admin.post('/api/v1/content/hero/reset', { version: hero.version - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>().error.message).toBe(conflictMessage('hero'));
    expect((await stats()).map((s) => s.label)).toEqual(['One', 'Two']);

    const reset = expectJson<SavedSection>(await admin.post('/api/v1/content/hero/reset', { version: hero.version }), 200);
    expect(reset.section).toMatchObject({ version: hero.version + 1, data: DEFAULT_HERO });
    expect((await revisions('hero'))[0]).toMatchObject({ version: hero.version + 1, kind: 'reset', restoredFrom: null });
    expect((await stats()).map((s) => ({ number: s.number, label: s.label, order: s.order, isActive: s.isActive }))).toEqual(
      DEFAULT_HERO_STATS.map((s, i) => ({ ...s, order: i, isActive: true })),
    );

    // Another section's reset leaves the hero stats alone.
    const contact = await section('contact');
    expectJson(await save('contact', contact.version, { ...DEFAULT_CONTACT, phone: '+1 555 0199' }), 200);
    expectJson(await admin.put('/api/v1/content/hero-stats', { stats: [{ number: '7', label: 'Seven' }] }), 200);
    const contactReset = expectJson<SavedSection>(await admin.post('/api/v1/content/contact/reset', { version: contact.version + 1 }), 200);
    expect(contactReset.section.data).toEqual(DEFAULT_CONTACT);
    expect((await stats()).map((s) => s.label)).toEqual(['Seven']);
  });

  it('restores an earlier revision as the next version, and shows any revision with its document', async () => {
    const start = (await section('blog')).version;
    expectJson(await save('blog', start, { ...DEFAULT_BLOG_PAGE, title: 'Journal' }), 200);
    expectJson(await save('blog', start + 1, { ...DEFAULT_BLOG_PAGE, title: 'News' }), 200);
    const list = await revisions('blog');
    const journal = list.find((r) => r.version === start + 1)!;
    const detail = expectJson<{ data: { title: string }; kind: string }>(await admin.get(`/api/v1/content/blog/revisions/${journal.id}`), 200);
    expect(detail).toMatchObject({ kind: 'save', data: { title: 'Journal' } });

    const stale = await admin.post(`/api/v1/content/blog/revisions/${journal.id}/restore`, { version: start + 1 });
    expect(stale.statusCode).toBe(409);
    expect((await section('blog')).data.title).toBe('News');

    const restored = expectJson<SavedSection>(await admin.post(`/api/v1/content/blog/revisions/${journal.id}/restore`, { version: start + 2 }), 200);
    expect(restored.section).toMatchObject({ version: start + 3, data: { title: 'Journal' } });
    expect((await revisions('blog'))[0]).toMatchObject({ version: start + 3, kind: 'restore', restoredFrom: start + 1 });
    expect((await publicContent()).blog.title).toBe('Journal');

    // A revision is looked up within its own section.
    expect((await admin.get(`/api/v1/content/about/revisions/${journal.id}`)).statusCode).toBe(404);
    expect((await admin.post(`/api/v1/content/about/revisions/${journal.id}/restore`, { version: 3 })).statusCode).toBe(404);
    expect((await admin.get(`/api/v1/content/blog/revisions/${randomUUID()}`)).statusCode).toBe(404);
  });

  describe('hero stats', () => {
    it('saves the list in display order: updates by id, adds new ones, removes the rest', async () => {
      const current = await stats();
      const kept = current[0]!;
      const list = expectJson<{ stats: HeroStat[] }>(
        await admin.put('/api/v1/content/hero-stats', {
          stats: [
            { number: '5K+', label: 'Teams' },
            { id: kept.id, number: '8', label: 'Kept', isActive: false },
            { number: '24/7', label: 'Support' },
          ],
        }),
        200,
      ).stats;
      expect(list.map((s) => [s.label, s.order, s.isActive])).toEqual([
        ['Teams', 0, true],
        ['Kept', 1, false],
        ['Support', 2, true],
      ]);
      expect(list[1]!.id).toBe(kept.id);
      expect(list[1]!.createdAt).toBe(kept.createdAt);
      expect(await app.database.db.selectFrom('heroStats').select('id').execute()).toHaveLength(3);
      expect((await publicContent()).heroStats).toEqual([
        { number: '5K+', label: 'Teams' },
        { number: '24/7', label: 'Support' },
      ]);
    });

    it.each([
      [{ stats: [] }, 'stats', 'Keep at least one stat'],
      [{ stats: Array.from({ length: HERO_STATS_MAX + 1 }, (_, i) => ({ number: `${i}`, label: 'x' })) }, 'stats', `At most ${HERO_STATS_MAX} stats`],
      [{ stats: [{ number: '', label: 'x' }] }, 'stats.0.number', 'Number is required'],
      [{ stats: [{ number: '1', label: ' ' }] }, 'stats.0.label', 'Label is required'],
      [{ stats: [{ number: '1'.repeat(21), label: 'x' }] }, 'stats.0.number', 'Must be at most 20 characters'],
      [{ stats: [{ number: '<script>', label: 'x' }] }, 'stats.0.number', SCRIPT_LIKE_MESSAGE],
    ])('refuses %j: %s %s', async (body, path, message) => {
      const before = await stats();
      const answer = await admin.put('/api/v1/content/hero-stats', body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json<ErrorBody>().error.fields?.[path]).toBe(message);
      expect(await stats()).toEqual(before);
    });

    it('refuses a stat listed twice', async () => {
      const id = (await stats())[0]!.id;
      const answer = await admin.put('/api/v1/content/hero-stats', { stats: [{ id, number: '1', label: 'a' }, { id, number: '2', label: 'b' }] });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<ErrorBody>().error.fields).toEqual({ 'stats.1.id': 'This stat is in the list twice' });
    });

    it('hides and shows a stat; the public content lists only shown stats', async () => {
      const [first] = await stats();
      const hidden = expectJson<{ stats: HeroStat[] }>(await admin.patch(`/api/v1/content/hero-stats/${first!.id}`, { isActive: false }), 200).stats;
      expect(hidden.find((s) => s.id === first!.id)?.isActive).toBe(false);
      expect((await publicContent()).heroStats.map((s) => s.label)).not.toContain(first!.label);
      expectJson(await admin.patch(`/api/v1/content/hero-stats/${first!.id}`, { isActive: true }), 200);
      expect((await publicContent()).heroStats[0]?.label).toBe(first!.label);
      expect((await admin.patch(`/api/v1/content/hero-stats/${randomUUID()}`, { isActive: true })).statusCode).toBe(404);
      expect((await admin.patch(`/api/v1/content/hero-stats/${first!.id}`, {})).json<ErrorBody>().error.fields).toEqual({ isActive: 'isActive is required' });
    });

    it('reorders: the stat moves to the 0-based position and the others close up (past the end: last)', async () => {
      const labels = ['A', 'B', 'C', 'D', 'E'];
      const saved = expectJson<{ stats: HeroStat[] }>(await admin.put('/api/v1/content/hero-stats', { stats: labels.map((label) => ({ number: '1', label })) }), 200).stats;
      const id = (label: string) => saved.find((s) => s.label === label)!.id;
      const move = async (label: string, newPosition: number) =>
        expectJson<{ stats: HeroStat[] }>(await admin.post(`/api/v1/content/hero-stats/${id(label)}/reorder`, { newPosition }), 200).stats.map((s) => `${s.order}${s.label}`);
      expect(await move('A', 2)).toEqual(['0B', '1C', '2A', '3D', '4E']);
      expect(await move('E', 0)).toEqual(['0E', '1B', '2C', '3A', '4D']);
      expect(await move('B', 99)).toEqual(['0E', '1C', '2A', '3D', '4B']);
      expect(await move('D', 3)).toEqual(['0E', '1C', '2A', '3D', '4B']);
      expect((await admin.post(`/api/v1/content/hero-stats/${randomUUID()}/reorder`, { newPosition: 0 })).statusCode).toBe(404);
      const negative = await admin.post(`/api/v1/content/hero-stats/${id('A')}/reorder`, { newPosition: -1 });
      expect(negative.statusCode).toBe(400);
      expect(Object.keys(negative.json<ErrorBody>().error.fields ?? {})).toEqual(['newPosition']);
    });

    it('concurrent reorders and saves never leave duplicate or missing positions', async () => {
      const saved = expectJson<{ stats: HeroStat[] }>(
        await admin.put('/api/v1/content/hero-stats', { stats: ['A', 'B', 'C', 'D', 'E', 'F'].map((label) => ({ number: '1', label })) }),
        200,
      ).stats;
      const ids = saved.map((s) => s.id);
      for (let round = 0; round < 3; round++) {
        const answers: Promise<LightMyRequestResponse>[] = [];
        for (let i = 0; i < 16; i++) {
          answers.push(admin.post(`/api/v1/content/hero-stats/${ids[(i * 5 + round) % ids.length]!}/reorder`, { newPosition: (i * 7 + round) % 6 }));
          if (i % 5 === 0) answers.push(admin.patch(`/api/v1/content/hero-stats/${ids[i % ids.length]!}`, { isActive: i % 2 === 0 }));
        }
        answers.push(admin.put('/api/v1/content/hero-stats', { stats: saved.map((s) => ({ id: s.id, number: s.number, label: s.label })) }));
        const statuses = (await Promise.all(answers)).map((a) => a.statusCode);
        expect(statuses.every((s) => s === 200)).toBe(true);
        const rows = await app.database.db.selectFrom('heroStats').select(['id', 'orderPosition']).orderBy('orderPosition').execute();
        expect(rows.map((r) => r.orderPosition)).toEqual([0, 1, 2, 3, 4, 5]);
        expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
      }
    });
  });

  describe('the public content', () => {
    it('answers without sign-in: sections over their defaults, shown stats, integrations with their status', async () => {
      const body = await publicContent();
      expect(Object.keys(body).sort()).toEqual(['about', 'blog', 'contact', 'hero', 'heroStats', 'integrations', 'services', 'updatedAt']);
      expect(body.integrations).toEqual(
        (['whatsapp', 'instagram', 'messenger', 'website', 'custom', 'n8n', 'zapier'] as const).map((id) => ({ id, name: INTEGRATION_NAMES[id], status: 'Live' })),
      );
      expect(INTEGRATION_NAMES).toMatchObject({ whatsapp: 'WhatsApp Business', messenger: 'Facebook Messenger', website: 'Website Chat', custom: 'Custom Platforms' });
    });

    it('takes the integration statuses the Features section overrides', async () => {
      const features = await section('features');
      expectJson(await save('features', features.version, { integrationOverrides: { zapier: 'Beta', instagram: 'Coming Soon', whatsapp: null } }), 200);
      const statuses = Object.fromEntries((await publicContent()).integrations.map((i) => [i.id, i.status]));
      expect(statuses).toEqual({ whatsapp: 'Live', instagram: 'Coming Soon', messenger: 'Live', website: 'Live', custom: 'Live', n8n: 'Live', zapier: 'Beta' });
      const wrong = await save('features', features.version + 1, { integrationOverrides: { zapier: 'Soon' } });
      expect(wrong.statusCode).toBe(400);
      expect(Object.keys(wrong.json<ErrorBody>().error.fields ?? {})).toEqual(['data.integrationOverrides.zapier']);
    });

    it('carries an ETag and Last-Modified with no-cache, answers 304 while current and 200 once anything is saved', async () => {
      const first = await app.client().get('/api/v1/public/content');
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = first.headers.etag as string;
      const lastModified = first.headers['last-modified'] as string;
      expect(etag).toMatch(/^"[\w-]{32}"$/u);
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      expect(first.json<PublicContent>().updatedAt).not.toBeNull();

      const same = await app.client().get('/api/v1/public/content', { 'if-none-match': etag });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(etag);
      expect((await app.client().get('/api/v1/public/content', { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await app.client().get('/api/v1/public/content', { 'if-modified-since': lastModified })).statusCode).toBe(304);
      expect((await app.client().get('/api/v1/public/content', { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).statusCode).toBe(200);

      const about = await section('about');
      expectJson(await save('about', about.version, { ...DEFAULT_ABOUT, mission: 'Seen at once' }), 200);
      const changed = await app.client().get('/api/v1/public/content', { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.json<PublicContent>().about.mission).toBe('Seen at once');
      expect(changed.headers.etag).not.toBe(etag);
    });

    it('moves the content version with every write, and publicSite gives the content and the published posts in one call', async () => {
      const version = async () => (await app.services.content.contentVersion()).version;
      const before = await version();
      const about = await section('about');
      expectJson(await save('about', about.version, { ...DEFAULT_ABOUT, mission: 'Version moves' }), 200);
      const afterSave = await version();
      expect(afterSave).toBeGreaterThan(before);
      const [first] = await stats();
      expectJson(await admin.patch(`/api/v1/content/hero-stats/${first!.id}`, { isActive: true }), 200);
      expect(await version()).toBeGreaterThan(afterSave);
      // A refused save moves nothing.
      const now = await version();
      expect((await save('about', about.version, DEFAULT_ABOUT)).statusCode).toBe(409);
      expect(await version()).toBe(now);

      const site = await app.services.content.publicSite();
      expect(site.version).toBe(now);
      expect(site.about.mission).toBe('Version moves');
      expect(site.heroStats).toEqual((await publicContent()).heroStats);
      expect(site.posts).toEqual([]);
      expect(await app.services.content.findPublishedPost(slugFromTitle(SAMPLE_POSTS[0]!.title))).toBeNull();
    });
  });

  it('tells its onChange after each committed write, and not after a refused one', async () => {
    let changes = 0;
    const onChange = () => void changes++;
    const repository = new ContentRepository(app.database.db);
    const posts = new BlogPostsService({ db: app.database.db, repository, onChange });
    const service = new ContentService({ db: app.database.db, repository, posts, liveIntegrations: [], onChange });
    const contact = await section('contact');
    await service.saveSection(adminId, 'contact', { version: contact.version, data: DEFAULT_CONTACT });
    expect(changes).toBe(1);
    await expect(service.saveSection(adminId, 'contact', { version: contact.version, data: DEFAULT_CONTACT })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(changes).toBe(1);
    const [first] = await service.findHeroStats();
    await service.setHeroStatActive(first!.id, true);
    await service.reorderHeroStat(first!.id, { newPosition: 0 });
    expect(changes).toBe(3);
    const post = await posts.createPost(adminId, { title: 'Change', excerpt: 'e', author: 'a', date: 'd', readTime: 'r', category: 'Business', image: 'https://i.example/a.png', body: '', slug: '', status: 'draft' });
    await posts.deletePost(post.id);
    expect(changes).toBe(5);
    // An integration the product does not run is Coming Soon, unless the Features section says otherwise (zapier: Beta above).
    expect(Object.fromEntries((await service.getPublicContent()).content.integrations.map((i) => [i.id, i.status]))).toEqual({
      whatsapp: 'Coming Soon',
      instagram: 'Coming Soon',
      messenger: 'Coming Soon',
      website: 'Coming Soon',
      custom: 'Coming Soon',
      n8n: 'Coming Soon',
      zapier: 'Beta',
    });
  });

  it('admin routes answer 401 signed out and 403 to managers and client users; the public read needs no sign-in', async () => {
    const manager = (await signedInClient(app, 'manager')).client;
    const clientUser = (await signedInClient(app, 'client')).client;
    const adminRoutes = app.routes.filter((r) => r.url.startsWith('/api/v1/content') || r.url.startsWith('/api/v1/blog-posts'));
    expect(adminRoutes.length).toBe(16);
    for (const route of adminRoutes) {
      expect(route.access).toEqual(['admin']);
      expect(route.scope).toBeUndefined();
      const url = route.url.replace(':section', 'hero').replace(':revisionId', randomUUID()).replace(':id', route.url.includes('hero-stats') ? randomUUID() : '1');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      expect((await app.client().request({ method: route.method, url, body })).statusCode, `${route.method} ${route.url} signed out`).toBe(401);
      for (const who of [manager, clientUser]) {
        expect((await who.request({ method: route.method, url, body })).statusCode, `${route.method} ${route.url}`).toBe(403);
      }
    }
    const publicRoutes = app.routes.filter((r) => r.url.startsWith('/api/v1/public/content') || r.url.startsWith('/api/v1/public/blog-posts'));
    expect(publicRoutes.every((r) => r.access === 'public')).toBe(true);
    expect(publicRoutes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /api/v1/public/blog-posts', 'GET /api/v1/public/blog-posts/:slug', 'GET /api/v1/public/content']);
    for (const url of ['/api/v1/public/content', '/api/v1/public/blog-posts']) expect((await app.client().get(url)).statusCode).toBe(200);
  });
});
