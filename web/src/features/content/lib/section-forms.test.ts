import { describe, expect, it } from 'vitest';
import { conflictMessage, type ServicesContent } from '@common/api/content';
import { DEFAULT_BLOG_PAGE, DEFAULT_CONTACT, DEFAULT_HERO, DEFAULT_SERVICES } from '@common/marketing/defaults';
import { PRODUCT_STATUS, SECTION_FORMS, sectionFieldErrors, sectionFieldOf, sectionFormOf, sectionResolver, type SectionForms } from './section-forms';

const resolve = async <K extends keyof SectionForms>(section: K, values: SectionForms[K]) =>
  sectionResolver(section)(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('the services editor', () => {
  it('shows features one per line and sends them back without blank lines', () => {
    const form = SECTION_FORMS.services.toForm(DEFAULT_SERVICES);
    expect(form.services[0]?.features).toBe(DEFAULT_SERVICES.services[0]?.features.join('\n'));
    const edited = { services: form.services.map((s, i) => (i === 0 ? { ...s, features: '\n  24/7 replies  \n\n\nHandoff\n  \n' } : s)) };
    const data = SECTION_FORMS.services.toData(edited) as ServicesContent;
    expect(data.services[0]?.features).toEqual(['24/7 replies', 'Handoff']);
  });

  it('needs at least one feature per card, and says so on that card', async () => {
    const form = SECTION_FORMS.services.toForm(DEFAULT_SERVICES);
    const edited = { services: form.services.map((s, i) => (i === 2 ? { ...s, features: '\n \n' } : s)) };
    const result = await resolve('services', edited);
    expect(result.errors).toMatchObject({ services: { 2: { features: { message: 'At least one feature is required' } } } });
  });

  it('maps a server path inside the list to the features field', () => {
    expect(sectionFieldOf('services', 'data.services.4.features.1')).toBe('services.4.features');
    expect(sectionFieldOf('services', 'services.1.title')).toBe('services.1.title');
  });
});

describe('the blog page editor', () => {
  it('edits categories one per line', () => {
    const form = SECTION_FORMS.blog.toForm(DEFAULT_BLOG_PAGE);
    expect(form.categories.split('\n')).toEqual(DEFAULT_BLOG_PAGE.categories);
    expect(SECTION_FORMS.blog.toData({ ...form, categories: 'All\n\nNews\n' })).toMatchObject({ categories: ['All', 'News'] });
    expect(sectionFieldOf('blog', 'data.categories.3')).toBe('categories');
  });
});

describe('the hero editor', () => {
  it('accepts the defaults and refuses an empty heading with the contract message', async () => {
    expect((await resolve('hero', DEFAULT_HERO)).errors).toEqual({});
    const result = await resolve('hero', { ...DEFAULT_HERO, heading: '   ' });
    expect(result.errors).toMatchObject({ heading: { message: 'Heading is required' } });
  });

  it('refuses script-like text, as the server does', async () => {
    const result = await resolve('hero', { ...DEFAULT_HERO, badge: 'New <script>alert(1)</script>' });
    expect(result.errors).toMatchObject({ badge: { message: 'Scripts, frames and embedded objects are not allowed' } });
  });
});

describe('the contact editor', () => {
  it('asks for hours on every weekday and a valid e-mail', async () => {
    const result = await resolve('contact', { ...DEFAULT_CONTACT, email: 'nope', hours: { ...DEFAULT_CONTACT.hours, sunday: '' } });
    expect(result.errors).toMatchObject({
      email: { message: 'Please enter a valid email address' },
      hours: { sunday: { message: 'Hours are required (write "Closed" for a closed day)' } },
    });
  });
});

describe('the features editor', () => {
  it('keeps the product status unless a status is forced', () => {
    const form = SECTION_FORMS.features.toForm({ integrationOverrides: { zapier: 'Beta' } });
    expect(form.integrations.zapier).toBe('Beta');
    expect(form.integrations.whatsapp).toBe(PRODUCT_STATUS);
    const data = SECTION_FORMS.features.toData({ integrations: { ...form.integrations, zapier: PRODUCT_STATUS, n8n: 'Coming Soon' } });
    expect(data).toEqual({ integrationOverrides: { n8n: 'Coming Soon' } });
    expect(sectionFieldOf('features', 'data.integrationOverrides.n8n')).toBe('integrations.n8n');
  });
});

describe('a stored document', () => {
  it('opens as it is when it matches, and as the defaults (said) when it does not', () => {
    expect(sectionFormOf('hero', DEFAULT_HERO)).toEqual({ form: DEFAULT_HERO, matches: true });
    expect(sectionFormOf('hero', { heading: 'only this' })).toEqual({ form: DEFAULT_HERO, matches: false });
  });

  it('puts server messages on their fields, the rest on the form', () => {
    expect(
      sectionFieldErrors('about', [
        { path: 'data.values.1.title', message: 'Title is required' },
        { path: 'data', message: 'Invalid content' },
      ]),
    ).toEqual({ 'values.1.title': 'Title is required', root: 'Invalid content' });
  });

  it('says what a conflict means', () => {
    expect(conflictMessage('hero')).toMatch(/^Someone else saved the Hero content since you opened it\./u);
  });
});
