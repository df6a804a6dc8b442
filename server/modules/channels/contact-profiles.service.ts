/**
 * Contact enrichment: Messenger and Instagram webhooks name a customer only by an id (PSID,
 * IGSID), so the inbox would show "PSID777". The job fetches the profile once, when the contact
 * is created (as Chatwoot does), and MessagingService stores the name and picture. Failures the
 * platform calls permanent (no permission, no consent, a blocked business, an expired token) end
 * the job without an error: the contact keeps the label the screens build from its id.
 */
import type { Logger } from 'pino';
import type { ChannelKind } from '../../db/schema';
import { type JobContext, RetryLaterError } from '../../jobs/define-job';
import type { MessagingService } from '../messaging';
import { type ChannelAdapter, SendError } from './adapters/channel-adapter';
import type { ChannelsRepository } from './channels.repository';

export interface ContactProfilesDeps {
  channels: ChannelsRepository;
  messaging: MessagingService;
  adapters: ReadonlyMap<ChannelKind, ChannelAdapter>;
  logger: Logger;
}

export class ContactProfiles {
  readonly #logger: Logger;

  constructor(private readonly deps: ContactProfilesDeps) {
    this.#logger = deps.logger.child({ component: 'contact-profiles' });
  }

  /** The job's handler. Resolves true when the contact's profile was stored. */
  async fetch(contactId: string, context: Pick<JobContext, 'signal'>): Promise<boolean> {
    const contact = await this.deps.messaging.findContact(contactId);
    if (!contact) return false;
    const channel = await this.deps.channels.findById(contact.channelId);
    const adapter = channel ? this.deps.adapters.get(channel.kind) : undefined;
    if (!channel || !adapter?.fetchProfile) return false;
    let profile;
    try {
      profile = await adapter.fetchProfile(this.deps.channels.openSecrets(channel), contact.externalId, context.signal);
    } catch (error) {
      if (!(error instanceof SendError)) throw error;
      if (error.retryable) {
        if (error.options.retryAfterMs !== undefined) throw new RetryLaterError(error.message, error.options.retryAfterMs, { cause: error });
        throw error;
      }
      this.#logger.info({ contactId, channel: channel.kind, code: error.code }, 'contact profile not available; the contact keeps its label');
      return false;
    }
    if (profile.name === null && profile.avatarUrl === null) return false;
    return this.deps.messaging.setContactProfile(contactId, profile);
  }
}
