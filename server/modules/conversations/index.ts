/**
 * The conversations module: the portal's read side of customer conversations — lists, threads,
 * search, exports, the inbox's views — and the portal's actions on them, which it hands to the
 * messaging module (the one writer).
 */
export { ConversationsService } from './conversations.service';
