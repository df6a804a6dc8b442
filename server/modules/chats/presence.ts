/**
 * Who is online, for the chat list. Every realtime connection of a signed-in user reports it is
 * alive (on connect and on each 30-second heartbeat); that time is written to
 * `users.last_seen_at` — at most once per user every 20 seconds per instance — so every instance
 * reads the same presence:
 *
 *   online   seen within 90 seconds (a live connection: three heartbeats of slack)
 *   away     seen within 15 minutes (the tab was closed or suspended a moment ago)
 *   offline  otherwise
 *
 * Idleness inside an open tab is not reported by the realtime protocol, so "away" means recently
 * connected rather than connected-but-idle.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock';
import type { UsersService } from '../users';

export type Presence = 'online' | 'away' | 'offline';

export const ONLINE_WITHIN_MS = 90_000;
export const AWAY_WITHIN_MS = 15 * 60_000;
const WRITE_EVERY_MS = 20_000;

export function presenceOf(lastSeenAt: Date | null, now: Date): Presence {
  if (!lastSeenAt) return 'offline';
  const age = now.getTime() - new Date(lastSeenAt).getTime();
  if (age <= ONLINE_WITHIN_MS) return 'online';
  if (age <= AWAY_WITHIN_MS) return 'away';
  return 'offline';
}

export class PresenceTracker {
  readonly #lastWrite = new Map<string, number>();

  constructor(private readonly deps: { users: Pick<UsersService, 'touchLastSeen'>; clock: Clock; logger: Logger }) {}

  /** A live connection of this user was seen now (the realtime routes' `onUserSeen`). */
  seen(userId: string): void {
    const now = this.deps.clock.now();
    const last = this.#lastWrite.get(userId);
    if (last !== undefined && now.getTime() - last < WRITE_EVERY_MS) return;
    this.#lastWrite.set(userId, now.getTime());
    this.deps.users
      .touchLastSeen(userId, now)
      .catch((error: unknown) => {
        this.#lastWrite.delete(userId);
        this.deps.logger.warn({ err: error, userId }, 'recording presence failed');
      });
  }
}
