/**
 * The template offers a business chooses on `/client-signup` (spec part 2 §3 "Template offer", §9
 * "Plans"): their ids, names and prices are the contract. Shared by the onboarding page, the
 * onboarding requests, the client's subscription and its invoices (issue 17). Amounts are integer
 * minor units with their currency; `priceText` is the spec's wording.
 */
import { z } from 'zod';

export const OFFER_IDS = ['instagram-dm', 'facebook-leads', 'whatsapp-business'] as const;
export const offerId = z.enum(OFFER_IDS, { error: 'Choose one of the templates' });
export type OfferId = z.infer<typeof offerId>;

/** Channel kinds an offer is built around (the client connects this channel to go live). */
export type OfferChannelKind = 'instagram' | 'messenger' | 'whatsapp';

export interface TemplateOffer {
  id: OfferId;
  name: string;
  description: string;
  /** The spec's price text, e.g. '$299/month'. */
  priceText: string;
  /** The monthly price in minor units of `currency` (cents). */
  priceMinor: number;
  currency: 'USD';
  features: readonly string[];
  channelKind: OfferChannelKind;
}

export const TEMPLATE_OFFERS: readonly TemplateOffer[] = [
  {
    id: 'instagram-dm',
    name: 'Instagram DM AI',
    description: 'Answer Instagram direct messages and qualify leads automatically.',
    priceText: '$299/month',
    priceMinor: 29_900,
    currency: 'USD',
    features: ['Instant DM replies', 'Lead qualification', 'Handoff to your team'],
    channelKind: 'instagram',
  },
  {
    id: 'facebook-leads',
    name: 'Facebook Lead AI',
    description: 'Follow up on Facebook leads and Messenger conversations within seconds.',
    priceText: '$399/month',
    priceMinor: 39_900,
    currency: 'USD',
    features: ['Lead follow-up', 'Messenger replies', 'CRM-ready summaries'],
    channelKind: 'messenger',
  },
  {
    id: 'whatsapp-business',
    name: 'WhatsApp Business AI',
    description: 'A WhatsApp assistant for orders, bookings and support questions.',
    priceText: '$499/month',
    priceMinor: 49_900,
    currency: 'USD',
    features: ['Orders and bookings', 'Support answers', 'Business hours rules'],
    channelKind: 'whatsapp',
  },
];

export function findOffer(id: string): TemplateOffer | undefined {
  return TEMPLATE_OFFERS.find((offer) => offer.id === id);
}

/** The industries of the Business Information form (spec part 2 "AI template onboarding"). */
export const INDUSTRIES = ['restaurant', 'retail', 'healthcare', 'education', 'real-estate', 'other'] as const;
export const industry = z.enum(INDUSTRIES, { error: 'Choose an industry' });
export type Industry = z.infer<typeof industry>;

/** The 'What happens next?' list (spec part 2 "AI template onboarding"; §9: contact within 24 hours). */
export const ONBOARDING_NEXT_STEPS = [
  'We contact you within 24 hours',
  'We set up your template',
  'You connect your social accounts',
  'You go live',
] as const;

/**
 * A client's subscription status as the dashboard's badge shows it: `active` ('Active
 * Subscription'), `paused` (the client's automation is paused), `past_due` (an invoice is overdue).
 */
export const subscriptionStatus = z.enum(['active', 'paused', 'past_due']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;

/** Formats minor units as the spec writes prices: '$299', '$299.50'. */
export function formatMoney(minor: number, currency: string): string {
  const major = minor / 100;
  const digits = Number.isInteger(major) ? 0 : 2;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: 2 }).format(major);
}
