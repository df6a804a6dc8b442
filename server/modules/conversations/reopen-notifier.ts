/**
 * The reopen rule's second half (the first is in parley_record_inbound, messaging/messaging.sql.ts): a
 * resolved conversation the customer writes to again while the AI will not answer it stays with
 * people, and they are told — an in-app notification like the escalation's, for the staff
 * (admins, managers) and the conversation's client's own users, who see and handle its inbox.
 */
import { contactLabel } from '../../../common/messaging/contact-label';
import type { Db } from '../../db/database';
import type { EventBus } from '../../events/event-bus';
import type { JobCompletion } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { NotificationsService } from '../notifications';
import type { UsersService } from '../users';
import { ConversationsRepository } from './conversations.repository';
import { notifyReopenedJob } from './notify-reopened.job';

const EXCERPT_LENGTH = 200;

export interface ReopenNotifierDeps {
  db: Db;
  events: EventBus;
  queue: JobQueue;
  notifications: NotificationsService;
  users: UsersService;
}

export class ReopenNotifier {
  readonly #conversations: ConversationsRepository;

  constructor(private readonly deps: ReopenNotifierDeps) {
    this.#conversations = new ConversationsRepository(deps.db);
  }

  /**
   * Subscribes to conversations the customer reopened that people handle (a person reopening one
   * from the portal needs no notice), and registers the job.
   */
  register(): void {
    this.deps.events.subscribe({
      event: 'conversation.reopened',
      where: { handledBy: 'human' },
      unlessPerformedBy: ['user', 'automation', 'system', 'ai'],
      job: notifyReopenedJob,
      keys: ['conversationId', 'messageId'],
    });
    this.deps.queue.register(notifyReopenedJob, async ({ conversationId, messageId }, ctx) => {
      if (messageId === null) return;
      // The job completes in the notifications' transaction: a crash after it cannot notify twice.
      await this.notify(conversationId, messageId, ctx.completion);
      ctx.completedInline();
    });
  }

  /** One notification per user who should know; resolves with how many were sent. */
  async notify(conversationId: string, messageId: string, completeJob?: JobCompletion): Promise<number> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (completeJob) await this.#conversations.completeJob(completeJob, trx);
      const row = await this.#conversations.findReopenedNotice(conversationId, messageId, trx);
      if (!row) return 0;
      const link = `/conversations?conversation=${row.id}`;
      const users = await this.deps.users.findRecipients({ clientId: row.clientId }, trx);
      const contact = contactLabel({ name: row.name, externalId: row.externalId }, row.kind);
      const text = row.content.trim() || `[${row.messageType}]`;
      const excerpt = text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
      for (const user of users) {
        await this.deps.notifications.notify(
          user.id,
          { kind: 'conversation.reopened', title: `Reopened: ${contact} (${row.companyName})`.slice(0, 200), body: `“${excerpt}”`, link },
          trx,
        );
      }
      return users.length;
    });
  }
}
