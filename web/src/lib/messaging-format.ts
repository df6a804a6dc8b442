/** Labels, colours and text helpers shared by the messaging screens. */
import type { ChannelKind } from '@common/api/channels';
import type { ConversationStatus, MessageStatus, Priority } from '@common/api/conversations';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';

/**
 * The platform colour dot (spec part 1 §2.12 names whatsapp, instagram and facebook): Messenger is
 * Facebook's, website chat and API channels get a neutral dot.
 */
export type DotPlatform = 'whatsapp' | 'instagram' | 'facebook' | 'webchat' | 'api';
export function dotPlatform(platform: ChannelKind): DotPlatform {
  return platform === 'messenger' ? 'facebook' : platform;
}
export const DOT_CLASS: Record<DotPlatform, string> = {
  whatsapp: 'bg-emerald-500',
  instagram: 'bg-pink-500',
  facebook: 'bg-blue-500',
  webchat: 'bg-slate-400',
  api: 'bg-slate-400',
};
export const DOT_LABEL: Record<DotPlatform, string> = {
  whatsapp: CHANNEL_KIND_LABEL.whatsapp,
  instagram: CHANNEL_KIND_LABEL.instagram,
  facebook: 'Facebook',
  webchat: CHANNEL_KIND_LABEL.webchat,
  api: CHANNEL_KIND_LABEL.api,
};

export const STATUS_LABEL: Record<ConversationStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  escalated: 'Escalated',
  resolved: 'Resolved',
};

export const PRIORITY_LABEL: Record<Priority, string> = { high: 'high', medium: 'medium', low: 'low' };

export const DELIVERY_LABEL: Record<MessageStatus, string> = {
  received: 'Received',
  queued: 'Queued',
  unknown: 'Not confirmed',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
};

/** AI confidence 0–1 as a whole percentage; "—" until the AI has answered. */
export function formatConfidence(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${Math.round(Math.min(1, Math.max(0, value)) * 100)}%`;
}

/** At most `max` characters, cut on a character boundary (never half an emoji) with an ellipsis. */
export function truncateText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}…`;
}

export { contactLabel } from '@common/messaging/contact-label';
