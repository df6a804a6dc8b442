import type { ClientDashboardView } from '@common/api/client-dashboard';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import type { Role } from '@common/roles';

export interface GoLiveStep {
  id: 'channel' | 'knowledge' | 'autoResponse';
  title: string;
  done: boolean;
  /** Whether the step can be done now (auto-response waits for a live knowledge base). */
  ready: boolean;
  /** What is done, or what is left and who does it. */
  detail: string;
  /** Where the viewer does it themselves, when their role may (channels: admins; the knowledge base: staff). */
  link?: { to: string; label: string };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The Going live steps from the dashboard's real data. Channels are connected by administrators
 * (`/clients`), the knowledge base is kept by staff (`/agents`); a client user is told their Parley
 * team does those, and switches auto-response on themselves.
 */
export function goLiveSteps(view: ClientDashboardView, role: Role | null): GoLiveStep[] {
  const { goLive, settings } = view;
  const clientId = encodeURIComponent(view.client.id);
  const staff = role === 'admin' || role === 'manager';

  const kinds = goLive.channelKinds.map((kind) => CHANNEL_KIND_LABEL[kind]).join(', ');
  const channel: GoLiveStep = {
    id: 'channel',
    title: 'Connect a channel',
    done: goLive.channels > 0,
    ready: true,
    detail:
      goLive.channels > 0
        ? `${plural(goLive.channels, 'channel', 'channels')} connected: ${kinds}.`
        : role === 'admin'
          ? 'Connect the WhatsApp number, Instagram account, Facebook page, website chat or own platform its customers write to.'
          : 'Your Parley team connects your WhatsApp, Instagram, Messenger, website chat or own platform.',
    ...(role === 'admin' && goLive.channels === 0 ? { link: { to: `/clients?client=${clientId}`, label: 'Connect a Channel' } } : {}),
  };

  const knowledge: GoLiveStep = {
    id: 'knowledge',
    title: 'Load your answers',
    done: goLive.knowledgeLive,
    ready: true,
    detail: goLive.knowledgeLive
      ? `${plural(goLive.liveEntries, 'answer', 'answers')} live${goLive.training ? '; learning the latest changes' : ''}.`
      : goLive.training
        ? 'The AI agent is learning the questions and answers now.'
        : staff
          ? 'Add the questions customers ask and their answers (or import a file): the AI agent answers from them.'
          : 'Your Parley team loads your questions and answers into the AI agent.',
    ...(staff && !goLive.knowledgeLive ? { link: { to: `/agents?client=${clientId}&section=knowledge`, label: 'Open the Knowledge Base' } } : {}),
  };

  const autoResponse: GoLiveStep = {
    id: 'autoResponse',
    title: 'Switch on auto-response',
    done: settings.autoResponse,
    ready: goLive.knowledgeLive,
    detail: settings.autoResponse
      ? 'The AI agent answers customers.'
      : goLive.knowledgeLive
        ? 'The AI agent starts answering customers; it hands a conversation to your team when it is unsure.'
        : 'Possible once the answers are live: without them the agent would hand every conversation to your team.',
  };

  return [channel, knowledge, autoResponse];
}
