/**
 * Content management (issue 15; server: server/modules/content; spec part 2 "Content management",
 * §3 content entities, §4/§5 blog rules, §8 content toasts; part 1 §3 hero stat, §5 sanitising,
 * §7 hero-stat calls). Every text an editor stores passes `safeText` (common/validation/sanitize.ts).
 *
 * Page content — one document per section, versioned; every save keeps a revision:
 *   GET  /api/v1/content                                   -> contentSectionsResponse (admins)
 *   PUT  /api/v1/content/:section                          saveSectionInput -> savedSection
 *        (409 CONFLICT when `version` is not the stored one: someone saved since)
 *   POST /api/v1/content/:section/reset                    resetSectionInput -> savedSection
 *   GET  /api/v1/content/:section/revisions                -> revisionsResponse (newest first)
 *   GET  /api/v1/content/:section/revisions/:revisionId    -> revisionDetail
 *   POST /api/v1/content/:section/revisions/:revisionId/restore  resetSectionInput -> savedSection
 * Hero stats (part 1 §3 entity, §7 calls; all transactional):
 *   GET   /api/v1/content/hero-stats                       -> heroStatsResponse (hidden ones too)
 *   PUT   /api/v1/content/hero-stats                       saveHeroStatsInput -> heroStatsResponse ('Stats Updated')
 *   PATCH /api/v1/content/hero-stats/:id                   toggleHeroStatInput -> heroStatsResponse ('Stat Hidden' / 'Stat Shown')
 *   POST  /api/v1/content/hero-stats/:id/reorder           reorderHeroStatInput -> heroStatsResponse ('Stats Reordered')
 * Blog posts (admins):
 *   GET    /api/v1/blog-posts                              -> blogPostsResponse (drafts too, newest first)
 *   POST   /api/v1/blog-posts                              blogPostInput -> 201 blogPostDetail ('Post created')
 *   GET    /api/v1/blog-posts/:id                          -> blogPostDetail
 *   PUT    /api/v1/blog-posts/:id                          updateBlogPostInput -> blogPostDetail ('Post updated'; 409 on a stale version)
 *   DELETE /api/v1/blog-posts/:id                          -> 204 ('Post deleted')
 *   POST   /api/v1/blog-posts/preview                      previewInput -> previewResponse (the body rendered as it will be)
 * Public (no sign-in; what the public pages read):
 *   GET /api/v1/public/content                             -> publicContent
 *   GET /api/v1/public/blog-posts                          -> publicBlogPostsResponse (published, newest first)
 *   GET /api/v1/public/blog-posts/:slug                    -> publicBlogPost (404 unless published)
 */
import { z } from 'zod';
import { httpsUrl, looksLikeScript, SCRIPT_LIKE_MESSAGE, safeText } from '../validation/sanitize';

const isoDate = z.iso.datetime({ offset: true });

// Sections

export const CONTENT_SECTIONS = ['hero', 'services', 'blog', 'about', 'contact', 'features'] as const;
export const contentSectionKey = z.enum(CONTENT_SECTIONS, { error: 'Unknown content section' });
export type ContentSectionKey = z.infer<typeof contentSectionKey>;

/** The section's name in toasts and titles ('Reset to defaults: {section} content has been reset to default values'). */
export const SECTION_LABELS: Record<ContentSectionKey, string> = {
  hero: 'Hero',
  services: 'Services',
  blog: 'Blog',
  about: 'About',
  contact: 'Contact',
  features: 'Features',
};

/** The success toast of each section's Save Changes (spec part 2 §8). */
export const SECTION_SAVED_TOASTS: Record<ContentSectionKey, string> = {
  hero: 'Hero content updated',
  services: 'Services updated',
  blog: 'Blog page updated',
  about: 'About content updated',
  contact: 'Contact info updated',
  features: 'Features updated',
};

export function resetToast(section: ContentSectionKey): string {
  return `Reset to defaults: ${SECTION_LABELS[section]} content has been reset to default values`;
}

/** 409 answer of a save on a stale version. */
export function conflictMessage(section: ContentSectionKey): string {
  return `Someone else saved the ${SECTION_LABELS[section]} content since you opened it. Reload to see their changes, then apply yours again.`;
}

const short = (required: string) => safeText({ required, max: 200 });
const long = (required: string) => safeText({ required, max: 2_000 });

export const HERO_FEATURE_ICONS = ['channels', 'agents', 'automation'] as const;

export const heroContent = z.object({
  badge: short('Badge is required'),
  heading: short('Heading is required'),
  subheading: short('Subheading is required'),
  description: long('Description is required'),
  ctaPrimary: safeText({ required: 'Primary button text is required', max: 60 }),
  ctaSecondary: safeText({ required: 'Secondary button text is required', max: 60 }),
  socialProof: short('Social proof is required'),
  features: z
    .array(z.object({ icon: z.enum(HERO_FEATURE_ICONS), label: safeText({ required: 'Feature label is required', max: 80 }) }))
    .length(3, { error: 'The hero has exactly 3 feature chips' }),
});
export type HeroContent = z.output<typeof heroContent>;

export const SERVICE_ICONS = ['message', 'workflow', 'rocket', 'plug', 'users', 'chart'] as const;

/** Features are entered one per line; blank lines are dropped (spec part 2 §5). */
export const linesField = (required: string) =>
  z
    .array(safeText({ max: 200 }))
    .max(20, { error: 'At most 20 lines' })
    .transform((lines) => lines.filter((line) => line.length > 0))
    .refine((lines) => lines.length > 0, { error: required });

export const serviceCard = z.object({
  id: z.string().trim().min(1).max(60).regex(/^[a-z0-9-]+$/u, { error: 'Use lowercase letters, digits and hyphens' }),
  icon: z.enum(SERVICE_ICONS),
  title: short('Title is required'),
  description: long('Description is required'),
  features: linesField('At least one feature is required'),
  price: safeText({ required: 'Price is required', max: 60 }),
  popular: z.boolean(),
});

export const servicesContent = z.object({
  services: z.array(serviceCard).length(6, { error: 'There are exactly 6 service cards' }),
});
export type ServicesContent = z.output<typeof servicesContent>;

export const BLOG_CATEGORIES = ['Automation', 'Case Study', 'Tutorial', 'Security', 'Business', 'Development'] as const;
export const blogCategory = z.enum(BLOG_CATEGORIES, { error: 'Choose one of the six categories' });
export type BlogCategory = z.infer<typeof blogCategory>;

export const blogPageContent = z.object({
  title: short('Title is required'),
  subtitle: long('Subtitle is required'),
  /** The filter chips: 'All' plus categories (one per line in the editor). */
  categories: linesField('At least one category is required'),
  newsletterTitle: short('Newsletter title is required'),
  newsletterDescription: long('Newsletter description is required'),
});
export type BlogPageContent = z.output<typeof blogPageContent>;

const statItem = z.object({ number: safeText({ required: 'Number is required', max: 20 }), label: safeText({ required: 'Label is required', max: 60 }) });

export const aboutContent = z.object({
  mission: long('Mission is required'),
  description: long('Description is required'),
  values: z
    .array(z.object({ title: safeText({ required: 'Title is required', max: 80 }), description: safeText({ required: 'Description is required', max: 400 }) }))
    .length(3, { error: 'There are exactly 3 values' }),
  stats: z.array(statItem).length(4, { error: 'There are exactly 4 stats' }),
});
export type AboutContent = z.output<typeof aboutContent>;

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const contactContent = z.object({
  email: z.string().trim().min(1, { error: 'Email is required' }).max(254, { error: 'Email is too long' }).pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: safeText({ required: 'Phone is required', max: 40 }),
  address: safeText({ required: 'Address is required', max: 300 }),
  hours: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, safeText({ required: 'Hours are required (write "Closed" for a closed day)', max: 60 })])) as Record<
    (typeof WEEKDAYS)[number],
    ReturnType<typeof safeText>
  >),
});
export type ContactContent = z.output<typeof contactContent>;

export const INTEGRATION_STATUSES = ['Live', 'Beta', 'Coming Soon'] as const;
export const integrationStatus = z.enum(INTEGRATION_STATUSES);
export type IntegrationStatus = z.infer<typeof integrationStatus>;
/** The integrations the Features page lists; their status comes from the product unless overridden. */
export const INTEGRATION_IDS = ['whatsapp', 'instagram', 'messenger', 'website', 'custom', 'n8n', 'zapier'] as const;
export const integrationId = z.enum(INTEGRATION_IDS);
export type IntegrationId = z.infer<typeof integrationId>;
/** How the Features page names each integration. */
export const INTEGRATION_NAMES: Record<IntegrationId, string> = {
  whatsapp: 'WhatsApp Business',
  instagram: 'Instagram',
  messenger: 'Facebook Messenger',
  website: 'Website Chat',
  custom: 'Custom Platforms',
  n8n: 'n8n',
  zapier: 'Zapier',
};

export const featuresContent = z.object({
  /** Per integration: a status forced by the editor, or null for the product's own. */
  integrationOverrides: z.partialRecord(integrationId, integrationStatus.nullable()),
});
export type FeaturesContent = z.output<typeof featuresContent>;

export const SECTION_SCHEMAS = {
  hero: heroContent,
  services: servicesContent,
  blog: blogPageContent,
  about: aboutContent,
  contact: contactContent,
  features: featuresContent,
} as const satisfies Record<ContentSectionKey, z.ZodType>;

export interface SectionData {
  hero: HeroContent;
  services: ServicesContent;
  blog: BlogPageContent;
  about: AboutContent;
  contact: ContactContent;
  features: FeaturesContent;
}

/** Who saved, as lists show it. */
const editor = z.object({ id: z.uuid(), name: z.string() }).nullable();

export const contentSection = z.object({
  section: contentSectionKey,
  /** The section's document (the defaults until first saved). */
  data: z.record(z.string(), z.unknown()),
  /** 0 = never saved (defaults). Send it back with a save: a save on an older version is a 409. */
  version: z.number().int().min(0),
  updatedAt: isoDate.nullable(),
  updatedBy: editor,
});
export type ContentSectionView = z.infer<typeof contentSection>;

export const contentSectionsResponse = z.object({ sections: z.array(contentSection) });

/** The version an edit was made on (PostgreSQL integer range). */
const editedVersion = (min: number) => z.number({ error: 'version is required' }).int().min(min).max(2_147_483_647);

export const saveSectionInput = z.object({
  version: editedVersion(0),
  data: z.unknown(),
});
export const resetSectionInput = z.object({ version: editedVersion(0) });

export const savedSection = z.object({
  section: contentSection,
  /**
   * Field paths whose text sanitising changed, and those it changed heavily (under 80 % left),
   * as the request body names them (`data.features.0.label`) — the same keys as the `fields` of
   * a 400 — with the indices the editor sent (before blank lines are dropped).
   */
  sanitized: z.array(z.string()),
  heavilySanitized: z.array(z.string()),
});
export type SavedSection = z.infer<typeof savedSection>;

export const REVISION_KINDS = ['save', 'reset', 'restore'] as const;
export const contentRevision = z.object({
  id: z.uuid(),
  section: contentSectionKey,
  version: z.number().int(),
  kind: z.enum(REVISION_KINDS),
  /** For a restore: the version it brought back. */
  restoredFrom: z.number().int().nullable(),
  createdAt: isoDate,
  createdBy: editor,
});
export const revisionsResponse = z.object({ revisions: z.array(contentRevision) });
export const revisionDetail = contentRevision.extend({ data: z.record(z.string(), z.unknown()) });
export const sectionParams = z.object({ section: contentSectionKey });
export const revisionParams = z.object({ section: contentSectionKey, revisionId: z.uuid({ error: 'Unknown revision' }) });

// Hero stats

export const HERO_STATS_MAX = 8;
export const heroStat = z.object({
  id: z.uuid(),
  number: z.string(),
  label: z.string(),
  order: z.number().int(),
  isActive: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type HeroStat = z.infer<typeof heroStat>;
export const heroStatsResponse = z.object({ stats: z.array(heroStat) });
/** Save (upsert, spec part 1 §7): the whole list in display order; rows not in it are removed. */
export const saveHeroStatsInput = z.object({
  stats: z
    .array(statItem.extend({ id: z.uuid().optional(), isActive: z.boolean().default(true) }))
    .min(1, { error: 'Keep at least one stat' })
    .max(HERO_STATS_MAX, { error: `At most ${HERO_STATS_MAX} stats` }),
});
export const heroStatParams = z.object({ id: z.uuid({ error: 'Unknown stat' }) });
export const toggleHeroStatInput = z.object({ isActive: z.boolean({ error: 'isActive is required' }) });
/** reorder_hero_stats(stat_id, new_position): 0-based position in the full list. */
export const reorderHeroStatInput = z.object({ newPosition: z.number({ error: 'newPosition is required' }).int().min(0) });

// Blog posts

export const BLOG_BODY_MAX = 100_000;
/** A Markdown body: stored as written, refused when script-like (spec part 1 §5), rendered through a sanitizer. */
export const markdownBody = z
  .string()
  .max(BLOG_BODY_MAX, { error: `The body is too long (at most ${BLOG_BODY_MAX} characters)` })
  .refine((body) => !looksLikeScript(body), { error: SCRIPT_LIKE_MESSAGE });
export const blogPostStatus = z.enum(['draft', 'published'], { error: 'Choose draft or published' });
export type BlogPostStatus = z.infer<typeof blogPostStatus>;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;
/** At most 100: the router's longest path parameter (`/blog/:slug`, Fastify's maxParamLength). */
export const SLUG_MAX = 100;
/** Room left after a generated slug for a `-N` suffix (a collision). */
const GENERATED_SLUG_MAX = 90;
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ð: 'd', þ: 'th', ł: 'l', đ: 'd', ı: 'i', '&': ' and ' };

/**
 * The slug made from a title: accents folded to ASCII, lowercased, anything else a hyphen, at most
 * 90 characters cut at a hyphen; 'post' when nothing is left (a title in another script).
 */
export function slugFromTitle(title: string): string {
  const folded = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæøœðþłđı&]/gu, (c) => FOLDED[c] ?? c);
  let slug = folded.replace(/[^a-z0-9]+/gu, '-').replace(/^-+|-+$/gu, '');
  if (slug.length > GENERATED_SLUG_MAX) {
    const cut = slug.slice(0, GENERATED_SLUG_MAX + 1);
    const hyphen = cut.lastIndexOf('-');
    slug = (hyphen > 0 ? cut.slice(0, hyphen) : cut.slice(0, GENERATED_SLUG_MAX)).replace(/-+$/u, '');
  }
  return slug === '' ? 'post' : slug;
}

export const blogPostInput = z.object({
  title: safeText({ required: 'Title is required', max: 200 }),
  excerpt: safeText({ required: 'Excerpt is required', max: 500 }),
  author: safeText({ required: 'Author is required', max: 100 }),
  /** Free text, e.g. 'March 15, 2024' (spec part 2 §3). */
  date: safeText({ required: 'Date is required', max: 40 }),
  /** Free text, e.g. '5 min read'. */
  readTime: safeText({ required: 'Read time is required', max: 40 }),
  category: blogCategory,
  image: httpsUrl('Image URL is required'),
  /** Markdown; refused when script-like, rendered through a sanitizer. May be empty for a draft. */
  body: markdownBody.default(''),
  /** Empty: made from the title. Unique. */
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(SLUG_MAX, { error: 'Slug is too long' })
    .refine((slug) => slug === '' || SLUG_PATTERN.test(slug), { error: 'Use lowercase letters, digits and single hyphens' })
    .default(''),
  status: blogPostStatus.default('draft'),
});
export type BlogPostInput = z.input<typeof blogPostInput>;
export const updateBlogPostInput = blogPostInput.extend({ version: editedVersion(1) });
/** 409 answer of an update on a stale version. */
export const POST_CONFLICT_MESSAGE = 'Someone else changed this post since you opened it. Reload to see their changes.';
/** 409 answer (field `slug`) when another post has the slug asked for. */
export const SLUG_TAKEN_MESSAGE = 'Another post already uses this slug';

export const blogPostSummary = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  author: z.string(),
  date: z.string(),
  readTime: z.string(),
  category: blogCategory,
  image: z.string(),
  status: blogPostStatus,
  publishedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  version: z.number().int(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummary>;
export const blogPostDetail = blogPostSummary.extend({ body: z.string(), bodyHtml: z.string() });
export type BlogPostDetail = z.infer<typeof blogPostDetail>;
export const blogPostsResponse = z.object({ posts: z.array(blogPostSummary) });
export const blogPostParams = z.object({
  id: z.coerce.number({ error: 'Unknown post' }).int({ error: 'Unknown post' }).positive({ error: 'Unknown post' }).max(2_147_483_647, { error: 'Unknown post' }),
});
export const previewInput = z.object({ body: markdownBody });
export const previewResponse = z.object({ html: z.string() });

// Public

export const publicBlogPost = blogPostSummary.omit({ status: true, version: true, createdAt: true }).extend({ bodyHtml: z.string() });
export type PublicBlogPost = z.infer<typeof publicBlogPost>;
export const publicBlogPostsResponse = z.object({ posts: z.array(blogPostSummary.omit({ status: true, version: true, createdAt: true })) });
export const blogSlugParams = z.object({ slug: z.string().max(SLUG_MAX) });

export const publicIntegration = z.object({ id: integrationId, name: z.string(), status: integrationStatus });
export const publicContent = z.object({
  hero: z.record(z.string(), z.unknown()),
  /** Active stats, in order. */
  heroStats: z.array(z.object({ number: z.string(), label: z.string() })),
  services: z.record(z.string(), z.unknown()),
  blog: z.record(z.string(), z.unknown()),
  about: z.record(z.string(), z.unknown()),
  contact: z.record(z.string(), z.unknown()),
  integrations: z.array(publicIntegration),
  /** The newest save of any section or stat (Last-Modified). */
  updatedAt: isoDate.nullable(),
});
export type PublicContent = z.infer<typeof publicContent>;
