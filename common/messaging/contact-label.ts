import type { ChannelKind } from '../api/channels';

/**
 * Who a contact is, for people (thread, lists, notifications, e-mails): the name the platform or
 * the visitor gave; else a readable form of its id on the platform — a WhatsApp number as the
 * phone number it is, a website visitor (whose id is a random token) as "Website visitor" and the
 * token's last four characters, like the help desks do, so two visitors still look different.
 * Searches match the same label: `contactLabelSql` in server/modules/conversations/conversations.repository.ts.
 */
export function contactLabel(contact: { name: string | null; externalId: string }, platform?: ChannelKind): string {
  const name = contact.name?.trim();
  if (name) return name;
  const id = contact.externalId;
  if (platform === 'webchat' && id.length >= 4) return `Website visitor ${id.slice(-4).toUpperCase()}`;
  if (platform === 'whatsapp' && /^\d{6,15}$/u.test(id)) return `+${id}`;
  return id;
}
