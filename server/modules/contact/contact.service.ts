/**
 * The contact form and its messages (issue 15; spec part 2 §3 contact message, §4 contact
 * transitions, §5 contact form rule; docs/contact.md). A message is stored before the visitor is
 * answered, in one transaction with an in-app notification to every administrator, an e-mail to
 * those who take e-mail notifications (the outbox) and the `contact_message.created` event that
 * brings it to administrators' open panels — and, through the events module's subscription to it,
 * the public event `contact_form.submitted` (docs/events.md). Reply e-mails the visitor from
 * Parley and records the reply in the transaction that queues the e-mail.
 */
import type { Logger } from 'pino';
import {
  CONTACT_MESSAGES_PAGE,
  CONTACT_MIN_FILL_MS,
  type ContactMessage,
  type ContactMessageDetail,
  type contactFormInput,
} from '../../../common/api/contact';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { EventBus } from '../../events/event-bus';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { contactMessageEmail, contactReplyEmail, type RenderedEmail } from '../email';
import type { RealtimeLoaders } from '../realtime';
import type { ContactMessageRow, ContactRepository } from './contact.repository';
import type { PublicFormLimits } from './public-form-limits';

/** The messages the panel lists: the newest ones (older ones stay stored). */
export const CONTACT_LIST_LIMIT = 500;
const EXCERPT_LENGTH = 200;

/** Someone told about a new message (UsersService.findRecipients, administrators only). */
export interface ContactAlertRecipient {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: { emailNotifications: boolean };
}

/** The users, notifications and email modules, as the contact module uses them (wired in app.ts). */
export interface ContactPorts {
  /** Enabled administrators, with their e-mail preference. */
  admins(trx: Db): Promise<ContactAlertRecipient[]>;
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, trx: Db): Promise<unknown>;
  /** Stores the e-mail in the outbox and queues its delivery, in `trx`; the outbox id. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<string>;
}

export interface ContactServiceDeps {
  db: Db;
  repository: ContactRepository;
  limits: PublicFormLimits;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  ports: ContactPorts;
}

export type ContactFormSubmission = z.output<typeof contactFormInput>;

export function toContactMessage(row: ContactMessageRow): ContactMessage {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    replyCount: row.replyCount,
  };
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat;
}

/**
 * Why a submission is dropped as a bot's, or null: the honeypot field is filled, or the form came
 * back sooner than `CONTACT_MIN_FILL_MS` after the page showed it. `shownAt` is the page's clock:
 * a time ahead of the server's (a skewed clock, not a bot) is not held against the visitor.
 */
export function spamReason(input: { website?: string | undefined; shownAt?: number | undefined }, now: Date): 'honeypot' | 'too-fast' | null {
  if (input.website !== undefined && input.website.trim() !== '') return 'honeypot';
  if (input.shownAt !== undefined) {
    const elapsed = now.getTime() - input.shownAt;
    if (elapsed >= 0 && elapsed < CONTACT_MIN_FILL_MS) return 'too-fast';
  }
  return null;
}

export class ContactService {
  constructor(private readonly deps: ContactServiceDeps) {}

  /**
   * A visitor's message. Counted against the IP's limit first (429 past it); a bot's (honeypot,
   * too fast) is answered like any other and not stored. Otherwise stored with the administrators'
   * notifications, e-mails and the live event, all or nothing. `stored` is for logs and tests only:
   * the visitor's answer never depends on it.
   */
  async submit(input: ContactFormSubmission, meta: { ip: string }): Promise<{ stored: boolean }> {
    await this.deps.limits.hit('contact', meta.ip);
    const now = this.deps.clock.now();
    const spam = spamReason(input, now);
    if (spam) {
      this.deps.logger.info({ reason: spam }, 'contact form dropped as spam');
      return { stored: false };
    }
    const { ports } = this.deps;
    await this.deps.db.transaction().execute(async (trx) => {
      const message = await this.deps.repository.insertMessage(
        {
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          company: input.company ? input.company : null,
          message: input.message,
          createdAt: now,
        },
        trx,
      );
      const senderName = `${message.firstName} ${message.lastName}`;
      const link = new URL(CONTACT_MESSAGES_PAGE, this.deps.publicUrl).toString();
      for (const admin of await ports.admins(trx)) {
        await ports.notify(
          admin.id,
          { kind: 'contact.message', title: `New message from ${senderName}`.slice(0, 200), body: excerpt(message.message), link: CONTACT_MESSAGES_PAGE },
          trx,
        );
        if (admin.notificationPreferences.emailNotifications) {
          await ports.email(
            admin.email,
            contactMessageEmail(admin.fullName || 'there', { senderName, senderEmail: message.email, company: message.company, message: message.message, url: link }),
            trx,
          );
        }
      }
      await this.deps.events.publish(trx, 'contact_message.created', { messageId: message.id }, { kind: 'customer' });
    });
    return { stored: true };
  }

  /** The newest messages first, with the unread count over all of them. */
  async findMessages(): Promise<{ messages: ContactMessage[]; unreadCount: number }> {
    const [rows, unreadCount] = await Promise.all([this.deps.repository.findMessages(CONTACT_LIST_LIMIT), this.deps.repository.countUnread()]);
    return { messages: rows.map(toContactMessage), unreadCount };
  }

  /** One message with its replies; opening it marks it read (by the first administrator who did). */
  async openMessage(id: string, readerId: string): Promise<ContactMessageDetail> {
    if (!(await this.deps.repository.markRead(id, readerId, this.deps.clock.now()))) throw notFound('Message');
    return this.#detail(id);
  }

  async deleteMessage(id: string): Promise<void> {
    if (!(await this.deps.repository.deleteMessage(id))) throw notFound('Message');
  }

  /**
   * E-mails the visitor from Parley (quoting their message) and records the reply on the message,
   * in one transaction: a reply is recorded exactly when its e-mail is in the outbox. Replying marks
   * the message read.
   */
  async reply(id: string, author: { id: string }, body: string): Promise<ContactMessageDetail> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const message = await this.deps.repository.lockMessage(id, trx);
      if (!message) throw notFound('Message');
      const emailId = await this.deps.ports.email(
        message.email,
        contactReplyEmail({ firstName: message.firstName, reply: body, original: message.message, sentAt: message.createdAt }),
        trx,
      );
      await this.deps.repository.insertReply({ messageId: id, body, sentAt: now, sentBy: author.id, emailId }, trx);
      await this.deps.repository.markRead(id, author.id, now, trx);
    });
    return this.#detail(id);
  }

  /** What the realtime hub sends administrators for `contact_message.created`. */
  realtimeLoaders(): Pick<Required<RealtimeLoaders>, 'contactMessage'> {
    return {
      contactMessage: async (id) => {
        const row = await this.deps.repository.findMessage(id);
        return row ? toContactMessage(row) : undefined;
      },
    };
  }

  async #detail(id: string): Promise<ContactMessageDetail> {
    const [row, replies] = await Promise.all([this.deps.repository.findMessage(id), this.deps.repository.findReplies(id)]);
    if (!row) throw notFound('Message');
    return {
      ...toContactMessage(row),
      replies: replies.map((r) => ({
        id: r.id,
        body: r.body,
        sentAt: r.sentAt.toISOString(),
        sentBy: r.sentById !== null && r.sentByName !== null ? { id: r.sentById, name: r.sentByName } : null,
        emailId: r.emailId,
      })),
    };
  }
}
