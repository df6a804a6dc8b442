/**
 * The agents module: each client's AI agent — its configuration, knowledge base and training —
 * and the policy that answers customers, hands off to people and summarises conversations
 * (through the messaging module, the one writer of conversations).
 */
export { AgentsService } from './agents.service';
export { AgentPolicy } from './agents.policy';
export { SatisfactionRequests, satisfactionRequestJob } from './satisfaction-requests';
/** The engine's text features for grouping texts by topic (the insights module's TextFeatures port, filled in by app.ts). */
export { EmbeddedTextFeatures, type TextEmbedding, type TextVector } from './engines/embedded/text-embedding';
