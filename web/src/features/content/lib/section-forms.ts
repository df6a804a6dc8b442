/**
 * Each page-content section as its editor's form: built from the stored document, turned back into
 * the document `PUT /api/v1/content/:section` takes, and validated with the contract's schema, whose
 * messages (and the server's `{ error: { fields } }`) land on the matching form fields.
 */
import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  INTEGRATION_IDS,
  INTEGRATION_STATUSES,
  SECTION_SCHEMAS,
  type AboutContent,
  type BlogPageContent,
  type ContactContent,
  type ContentSectionKey,
  type FeaturesContent,
  type HeroContent,
  type IntegrationStatus,
  type SectionData,
  type ServicesContent,
} from '@common/api/content';
import { DEFAULT_CONTENT } from '@common/marketing/defaults';
import { linesToList, listToLines } from './lines';

export type HeroForm = HeroContent;
export type AboutForm = AboutContent;
export type ContactForm = ContactContent;

export interface ServiceCardForm {
  id: string;
  icon: ServicesContent['services'][number]['icon'];
  title: string;
  description: string;
  /** One feature per line. */
  features: string;
  price: string;
  popular: boolean;
}
export interface ServicesForm {
  services: ServiceCardForm[];
}

export interface BlogPageForm {
  title: string;
  subtitle: string;
  /** One category per line. */
  categories: string;
  newsletterTitle: string;
  newsletterDescription: string;
}

/** The Features page status of an integration: the product's own, or one the editor forces. */
export const PRODUCT_STATUS = 'product';
export type IntegrationChoice = typeof PRODUCT_STATUS | IntegrationStatus;
export const INTEGRATION_CHOICES: readonly IntegrationChoice[] = [PRODUCT_STATUS, ...INTEGRATION_STATUSES];
export type IntegrationId = (typeof INTEGRATION_IDS)[number];
export interface FeaturesForm {
  integrations: Record<IntegrationId, IntegrationChoice>;
}

export interface SectionForms {
  hero: HeroForm;
  services: ServicesForm;
  blog: BlogPageForm;
  about: AboutForm;
  contact: ContactForm;
  features: FeaturesForm;
}

export interface SectionFormSpec<K extends ContentSectionKey> {
  toForm: (data: SectionData[K]) => SectionForms[K];
  toData: (form: SectionForms[K]) => unknown;
  /** The form field a document path belongs to (`services.2.features.0` → `services.2.features`). */
  formPath: (path: string) => string;
}

const same = (path: string) => path;
const clone = <T>(value: T): T => structuredClone(value);

export const SECTION_FORMS: { [K in ContentSectionKey]: SectionFormSpec<K> } = {
  hero: { toForm: clone, toData: clone, formPath: same },
  about: { toForm: clone, toData: clone, formPath: same },
  contact: { toForm: clone, toData: clone, formPath: same },
  services: {
    toForm: (data) => ({ services: data.services.map((s) => ({ ...s, features: listToLines(s.features) })) }),
    toData: (form) => ({ services: form.services.map((s) => ({ ...s, features: linesToList(s.features) })) }),
    formPath: (path) => {
      const match = /^services\.(\d+)\.features(?:\.\d+)?$/u.exec(path);
      return match ? `services.${match[1]}.features` : path;
    },
  },
  blog: {
    toForm: (data: BlogPageContent) => ({ ...data, categories: listToLines(data.categories) }),
    toData: (form) => ({ ...form, categories: linesToList(form.categories) }),
    formPath: (path) => (path.startsWith('categories') ? 'categories' : path),
  },
  features: {
    toForm: (data: FeaturesContent) => ({
      integrations: Object.fromEntries(INTEGRATION_IDS.map((id) => [id, data.integrationOverrides[id] ?? PRODUCT_STATUS])) as Record<IntegrationId, IntegrationChoice>,
    }),
    toData: (form) => ({
      integrationOverrides: Object.fromEntries(INTEGRATION_IDS.flatMap((id) => (form.integrations[id] === PRODUCT_STATUS ? [] : [[id, form.integrations[id]]]))),
    }),
    formPath: (path) => {
      const match = /^integrationOverrides\.([a-z0-9]+)/u.exec(path);
      return match ? `integrations.${match[1]}` : path;
    },
  },
};

export function sectionSchema<K extends ContentSectionKey>(section: K): z.ZodType<SectionData[K]> {
  return SECTION_SCHEMAS[section] as unknown as z.ZodType<SectionData[K]>;
}

export function defaultContent<K extends ContentSectionKey>(section: K): SectionData[K] {
  return DEFAULT_CONTENT[section];
}

/**
 * The editor's form for a stored document. A document that does not match the schema (written by an
 * older version) opens as the defaults, and `matches` says so.
 */
export function sectionFormOf<K extends ContentSectionKey>(section: K, data: unknown): { form: SectionForms[K]; matches: boolean } {
  const parsed = sectionSchema(section).safeParse(data);
  const spec = SECTION_FORMS[section];
  return parsed.success ? { form: spec.toForm(parsed.data), matches: true } : { form: spec.toForm(defaultContent(section)), matches: false };
}

/** The form field of a path the server named (a save body is `{ version, data }`: `data.` is dropped). */
export function sectionFieldOf<K extends ContentSectionKey>(section: K, apiPath: string): string {
  const path = apiPath.replace(/^data\.?/u, '');
  return path === '' ? 'root' : SECTION_FORMS[section].formPath(path);
}

/** Messages by form field, the first one per field. */
export function sectionFieldErrors<K extends ContentSectionKey>(section: K, issues: Iterable<{ path: string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of issues) out[sectionFieldOf(section, path)] ??= message;
  return out;
}

function toFieldErrors(flat: Record<string, string>): FieldErrors {
  return Object.fromEntries(Object.entries(flat).map(([name, message]) => [name, { type: 'validation', message }]));
}

/** react-hook-form resolver: the form is valid when its document passes the section's schema; the output is that document. */
export function sectionResolver<K extends ContentSectionKey>(section: K): Resolver<SectionForms[K] & FieldValues, unknown, SectionData[K]> {
  return (values, _context, options) => {
    const result = sectionSchema(section).safeParse(SECTION_FORMS[section].toData(values));
    if (result.success) return { values: result.data, errors: {} };
    const flat = sectionFieldErrors(
      section,
      result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    );
    return { values: {}, errors: toNestErrors(toFieldErrors(flat), options) };
  };
}
