/**
 * Contact form, contact messages and the newsletter (issue 15; server: server/modules/contact;
 * spec part 2 §3 contact message, §4 contact transitions, §5 contact form rule, §8 toasts).
 *
 * Public (no sign-in; spam-resistant without third parties: a honeypot field, a minimum fill time
 * and a per-IP limit):
 *   POST /api/v1/public/contact                 contactFormInput -> 201 contactFormAccepted
 *   POST /api/v1/public/newsletter              newsletterSubscribeInput -> 202 newsletterAccepted
 *        (always the same answer, whether the address was new, pending or subscribed: no address
 *        is disclosed; a confirmation e-mail goes out — double opt-in)
 *   GET  /newsletter/confirm?token=…            -> 303 to /blog?newsletter=confirmed (or =invalid)
 *   GET  /newsletter/unsubscribe?token=…        -> 303 to /blog?newsletter=unsubscribed (or =invalid)
 *   POST /newsletter/unsubscribe?token=…        -> 200 (RFC 8058 one-click, List-Unsubscribe-Post)
 * Admins:
 *   GET    /api/v1/contact-messages             -> contactMessagesResponse (newest first, with unreadCount)
 *   GET    /api/v1/contact-messages/:id         -> contactMessageDetail (marks it read)
 *   DELETE /api/v1/contact-messages/:id         -> 204 ('Message deleted')
 *   POST   /api/v1/contact-messages/:id/reply   contactReplyInput -> 201 contactMessageDetail (the e-mail is sent from Parley)
 *   GET    /api/v1/newsletter-subscribers       -> newsletterSubscribersResponse
 *   GET    /api/v1/newsletter-subscribers.csv   -> text/csv
 * Live: a new message reaches admins' open panels over the WebSocket (`contact_message.created`).
 */
import { z } from 'zod';
import { emailSchema, NAME_MAX } from '../validation/auth';
import { safeText } from '../validation/sanitize';

const isoDate = z.iso.datetime({ offset: true });

export const CONTACT_MESSAGE_MAX = 5_000;
/** A form sent sooner than this after it was shown is treated as a bot (answered like a success, not stored). */
export const CONTACT_MIN_FILL_MS = 3_000;
export const CONTACT_SENT_TOAST = { title: 'Message sent successfully!', description: "We'll get back to you within 24 hours." } as const;
/** Where administrators read contact messages (the link of their notification and e-mail). */
export const CONTACT_MESSAGES_PAGE = '/admin';

export const contactFormInput = z.object({
  firstName: safeText({ required: 'First name is required', max: NAME_MAX, tooLong: 'First name is too long' }),
  lastName: safeText({ required: 'Last name is required', max: NAME_MAX, tooLong: 'Last name is too long' }),
  email: emailSchema,
  company: safeText({ max: 200, tooLong: 'Company is too long' }).optional(),
  message: safeText({ required: 'Message is required', max: CONTACT_MESSAGE_MAX, tooLong: `Message must be at most ${CONTACT_MESSAGE_MAX} characters` }),
  /** Honeypot: hidden from people; a bot fills it. */
  website: z.string().max(500).optional(),
  /** When the form was shown (ms since the epoch, from the page). */
  shownAt: z.number().int().nonnegative().optional(),
});
export type ContactFormInput = z.input<typeof contactFormInput>;
export const contactFormAccepted = z.object({ ok: z.literal(true) });

export const contactReply = z.object({
  id: z.uuid(),
  body: z.string(),
  sentAt: isoDate,
  sentBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** The outbox e-mail (GET /api/v1/admin/outbox/:id). */
  emailId: z.string().nullable(),
});

export const contactMessage = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  message: z.string(),
  /** The spec's `timestamp`. */
  createdAt: isoDate,
  read: z.boolean(),
  readAt: isoDate.nullable(),
  replyCount: z.number().int(),
});
export type ContactMessage = z.infer<typeof contactMessage>;
export const contactMessageDetail = contactMessage.extend({ replies: z.array(contactReply) });
export type ContactMessageDetail = z.infer<typeof contactMessageDetail>;
export const contactMessagesResponse = z.object({ messages: z.array(contactMessage), unreadCount: z.number().int() });
export type ContactMessagesResponse = z.infer<typeof contactMessagesResponse>;
export const contactMessageParams = z.object({ id: z.uuid({ error: 'Unknown message' }) });
export const contactReplyInput = z.object({
  body: z.string({ error: 'Reply is required' }).trim().min(1, { error: 'Reply is required' }).max(10_000, { error: 'Reply is too long' }),
});

export const newsletterSubscribeInput = z.object({
  email: emailSchema,
  website: z.string().max(500).optional(),
});
export const NEWSLETTER_ACCEPTED_MESSAGE = 'Check your inbox: we sent a link to confirm your subscription.';
export const newsletterAccepted = z.object({ message: z.string() });
/** The confirm and unsubscribe links' query (a missing or unknown token redirects with `=invalid`). */
export const newsletterTokenQuery = z.object({ token: z.string().max(200).optional() });
export const NEWSLETTER_UNSUBSCRIBED_MESSAGE = 'You are unsubscribed from the Parley newsletter.';
/** The one-click unsubscribe's answer (RFC 8058). */
export const newsletterUnsubscribed = z.object({ message: z.string() });

export const NEWSLETTER_STATUSES = ['pending', 'subscribed', 'unsubscribed'] as const;
export const newsletterSubscriber = z.object({
  id: z.uuid(),
  email: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  createdAt: isoDate,
  confirmedAt: isoDate.nullable(),
  unsubscribedAt: isoDate.nullable(),
});
export const newsletterSubscribersResponse = z.object({
  subscribers: z.array(newsletterSubscriber),
  counts: z.object({ pending: z.number().int(), subscribed: z.number().int(), unsubscribed: z.number().int() }),
});
export type NewsletterSubscribersResponse = z.infer<typeof newsletterSubscribersResponse>;
