/** The list's tabs (spec part 1 §2.15): All / Active / Pending / Escalated. */
export const CONVERSATION_TABS = ['all', 'active', 'pending', 'escalated'] as const;
export type ConversationListTab = (typeof CONVERSATION_TABS)[number];

export function parseTab(value: string | null): ConversationListTab {
  return (CONVERSATION_TABS as readonly string[]).includes(value ?? '') ? (value as ConversationListTab) : 'all';
}
