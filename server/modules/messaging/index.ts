/**
 * The messaging module: the one writer of customer conversations — contacts, conversations,
 * messages and their delivery statuses — for every channel. Other modules use it through the
 * MessagingService app.ts passes them, and through the types and rules below.
 */
export {
  BUSINESS_FIRST_CHANNELS,
  CUSTOMER_SERVICE_WINDOW_MS,
  MessagingService,
  OUTCOME_UNKNOWN_REASON,
  PROFILE_CHANNELS,
  WINDOW_CHANNELS,
  keywordAnnotation,
  storableJson,
  type AnnotateInbound,
  type BeginSend,
  type ContactProfile,
  type DeliveryStatus,
  type InboundAnnotation,
  type InboundMessageInput,
  type RecordResult,
  type SendInput,
  type SendJobHint,
  type SendOptions,
  type UnknownOutcome,
} from './messaging.service';
export { InboxStateService, type ConversationChanges } from './inbox-state.service';
export { sendMessageJob } from './send-message.job';
export { fetchContactProfileJob } from './fetch-contact-profile.job';
export { detectLead, type LeadDetection } from './lead-signals';
