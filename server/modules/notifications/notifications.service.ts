/**
 * In-app notifications (the header bell and /notifications). A user only ever sees and marks
 * their own: every query is keyed by the caller's id, so another user's notification id reads as
 * not found. Other modules tell a user something with `notify`.
 */
import type { Notification } from '../../../common/api/me';
import type { Db } from '../../db/database';
import type { EventBus } from '../../events/event-bus';
import type { Notification as NotificationRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { NotificationsRepository } from './notifications.repository';

export interface NotifyInput {
  /** A short machine-readable kind, e.g. "conversation.escalated" (1–64 characters). */
  kind: string;
  /** 1–200 characters. */
  title: string;
  body?: string | null;
  /** A path in the web app (or an absolute URL), at most 2048 characters. */
  link?: string | null;
}

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export class NotificationsService {
  /** `events`: each notification is published (`notification.created`), so the bell updates live. */
  readonly #notifications: NotificationsRepository;

  constructor(private readonly deps: { db: Db; events?: EventBus }) {
    this.#notifications = new NotificationsRepository(deps.db);
  }

  /** Records a notification for a user; pass a transaction to make it part of a larger change. */
  async notify(userId: string, input: NotifyInput, db: Db = this.deps.db): Promise<Notification> {
    const row = await this.#notifications.insertNotification(
      { userId, kind: input.kind, title: input.title, body: input.body ?? null, link: input.link ?? null },
      db,
    );
    await this.deps.events?.publish(db, 'notification.created', { notificationId: row.id, userId }, { kind: 'system' });
    return toNotification(row);
  }

  /** The newest notifications first, with the unread count over all of them. */
  async findNotifications(userId: string, options: { limit: number }): Promise<{ notifications: Notification[]; unreadCount: number }> {
    const rows = await this.#notifications.findNotifications(userId, options.limit);
    return { notifications: rows.map(toNotification), unreadCount: await this.countUnread(userId) };
  }

  async countUnread(userId: string): Promise<number> {
    return this.#notifications.countUnread(userId);
  }

  /** Marks one of the user's notifications read (again is fine); someone else's is not found. */
  async markRead(userId: string, notificationId: string): Promise<void> {
    if (!(await this.#notifications.markRead(userId, notificationId))) throw notFound('Notification');
  }

  async markAllRead(userId: string): Promise<number> {
    return this.#notifications.markAllRead(userId);
  }
}
