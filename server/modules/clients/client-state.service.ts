/**
 * A client's switches (docs/client-dashboard.md): its automation paused or running, its status
 * active or inactive (deactivated), and whether its conversations can become leads (lead
 * qualification; admins, managers, the client's own users). Each change
 * is one transaction under the client's row lock, so a change is never half stored and two
 * people flipping the same switch record it once.
 *
 * - Pause / resume (admins, managers, the client's own users — a client user only their own
 *   client, 404 otherwise): stored on the client (`automation_paused_at`, `_by`), which the AI
 *   agent's policy, the reopen rule and the automations' triggers read; logged as a security event;
 *   every other administrator told in the app and, if they take e-mail, by e-mail.
 * - Deactivate / reactivate (admins, through PATCH status): the client's users' sessions are
 *   revoked in the same transaction (they cannot sign in while it is inactive: the users module's
 *   `isDisabled`), its channels stop accepting (the channel directory only accepts channels of
 *   active clients; `statusChanged` drops this process's webhook cache at once); logged.
 */
import type { z } from 'zod';
import type { ClientView, updateClientInput } from '../../../common/api/channels';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { clientAutomationEmail, type RenderedEmail } from '../email';
import type { SecurityEventInput } from '../security';
import type { ClientsRepository } from './clients.repository';
import type { ClientsService } from './clients.service';

type UpdateClientCommand = z.output<typeof updateClientInput>;

/** An administrator told about a pause or resume (UsersService.findRecipients, administrators only). */
export interface ClientAlertRecipient {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: { emailNotifications: boolean };
}

/** The users, notifications, email, security and auth modules as the clients module uses them (wired in app.ts). */
export interface ClientStatePorts {
  /** Enabled administrators with their e-mail preference, read in `trx`. */
  admins(trx: Db): Promise<ClientAlertRecipient[]>;
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, trx: Db): Promise<unknown>;
  /** Stores the e-mail in the outbox and queues its delivery, in `trx`. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<unknown>;
  /** Records a security (audit) event in `trx`. */
  securityEvent(event: SecurityEventInput, trx: Db): Promise<void>;
  /** Signs out every user of the client, in `trx`; how many sessions. */
  revokeSessions(clientId: string, trx: Db): Promise<number>;
  /** After a status change committed: this process stops (or starts) accepting the client's channels at once. */
  statusChanged(): void;
}

export interface ClientStateServiceDeps {
  db: Db;
  clients: ClientsService;
  repository: ClientsRepository;
  clock: Clock;
  publicUrl: string;
  ports: ClientStatePorts;
}

/** Where a notification about a client's automation leads: its dashboard. */
export const clientDashboardLink = (clientId: string) => `/client-dashboard?client=${clientId}`;

export class ClientStateService {
  constructor(private readonly deps: ClientStateServiceDeps) {}

  /**
   * Pauses or resumes the client's automation. Already so: nothing changes, nothing is logged
   * again. Another client's id (for a client user) answers 404.
   */
  async setAutomationPaused(user: SessionUser, clientId: string, paused: boolean): Promise<ClientView> {
    const { db, repository, ports, clock } = this.deps;
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const client = await repository.lockClient(trx, clientId, scopeFor(user));
      if (!client) throw notFound('Client');
      if ((client.automationPausedAt !== null) === paused) return;
      await repository.setAutomationPaused(trx, clientId, paused ? now : null, paused ? user.id : null);
      await ports.securityEvent(
        {
          type: paused ? 'clients.automation_paused' : 'clients.automation_resumed',
          severity: paused ? 'warning' : 'info',
          userId: user.id,
          email: user.email,
          details: { clientId, clientName: client.companyName, role: user.role },
          at: now,
        },
        trx,
      );
      const who = user.name.trim() || user.email;
      const link = clientDashboardLink(clientId);
      const title = `${paused ? 'Automation paused' : 'Automation resumed'}: ${client.companyName}`.slice(0, 200);
      const body = paused
        ? `${who} paused it: the AI agent does not answer this client's customers (they get the away message and go to people) and its automations do not start.`
        : `${who} resumed it: the AI agent answers this client's customers again and its automations start again.`;
      for (const admin of await ports.admins(trx)) {
        // The person who flipped the switch knows.
        if (admin.id === user.id) continue;
        await ports.notify(admin.id, { kind: paused ? 'client.automation_paused' : 'client.automation_resumed', title, body, link }, trx);
        if (admin.notificationPreferences.emailNotifications) {
          await ports.email(
            admin.email,
            clientAutomationEmail(admin.fullName || 'there', { paused, clientName: client.companyName, changedBy: who, at: now, url: new URL(link, this.deps.publicUrl).toString() }),
            trx,
          );
        }
      }
    });
    return this.deps.clients.getClient(user, clientId);
  }

  /**
   * An administrator's change to a client (PATCH). A status change deactivates or reactivates it
   * in the same transaction: deactivating revokes every session of its users; both are logged.
   */
  async updateClient(actor: SessionUser, id: string, input: UpdateClientCommand): Promise<ClientView> {
    const { db, repository, ports, clock } = this.deps;
    const now = clock.now();
    const statusChanged = await db.transaction().execute(async (trx) => {
      const client = await repository.lockClient(trx, id, { clientId: null });
      if (!client) throw notFound('Client');
      await repository.updateClient(id, input, trx);
      if (input.status === undefined || input.status === client.status) return false;
      const deactivated = input.status === 'inactive';
      const sessionsRevoked = deactivated ? await ports.revokeSessions(id, trx) : 0;
      await ports.securityEvent(
        {
          type: deactivated ? 'clients.deactivated' : 'clients.reactivated',
          severity: deactivated ? 'warning' : 'info',
          userId: actor.id,
          email: actor.email,
          details: { clientId: id, clientName: input.companyName ?? client.companyName, sessionsRevoked },
          at: now,
        },
        trx,
      );
      return true;
    });
    if (statusChanged) ports.statusChanged();
    return this.deps.clients.getClient(null, id);
  }

  /**
   * Lead qualification on or off for the client (the dashboard's Automation Settings): whether
   * customers' messages can make its conversations leads from now on (leads already made stay).
   * 404 outside the scope.
   */
  async setLeadQualification(user: SessionUser, clientId: string, enabled: boolean): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const client = await this.deps.repository.lockClient(trx, clientId, scopeFor(user));
      if (!client) throw notFound('Client');
      await this.deps.repository.setLeadQualification(trx, clientId, enabled);
    });
  }
}
