/**
 * Does the customer explicitly ask for a person? A small, conservative rule: a request verb
 * ("talk to", "speak with", "connect me to", "I want", …) followed closely by someone human
 * ("a human", "a real person", "an agent", "someone", "a representative", …), or a message that
 * is nothing but such a person ("Human please", "agent!"). Mentions that are not requests ("the
 * agent was rude", "can someone else use my card?", "I talked to someone yesterday") do not match.
 */
import { normalizeText } from './text';

const PERSON =
  '(?:(?:a|an|the|some|your|one|of|real|live|actual|human|other|customer|support|service|care|sales|billing)\\s+){0,4}' +
  '(?:human(?:\\s+being)?|person|people|agent|representative|rep|operator|someone|somebody|anyone|anybody|staff|employee|manager|supervisor|advisor|adviser|consultant|team member|real one|customer service|customer support|support team|support)';

const REQUEST_PATTERNS: readonly RegExp[] = [
  // "can I talk to a human", "let me speak with someone", "I'd like to chat with an agent"
  new RegExp(`\\b(?:talk|speak|chat|converse)\\s+(?:\\w+\\s+)?(?:to|with)\\s+${PERSON}\\b`, 'u'),
  // "connect me to / transfer me to / put me through to / get me / give me / pass me to a person"
  new RegExp(`\\b(?:connect|transfer|put|pass|forward|redirect|escalate)\\s+(?:me|this|my (?:call|chat|case|question))\\s+(?:through\\s+)?(?:to|with)\\s+${PERSON}\\b`, 'u'),
  new RegExp(`\\b(?:get|give|find)\\s+me\\s+${PERSON}\\b`, 'u'),
  // "I want / need / would like a human", "can I have a real person"
  new RegExp(
    `\\b(?:i\\s+(?:want|need|would like|wanna)|id like|can i (?:have|get)|could i (?:have|get)|may i (?:have|get))\\s+(?:to\\s+(?:talk|speak|chat)\\s+(?:to|with)\\s+)?` +
      `(?:a|an|some)\\s+(?:real\\s+|live\\s+|actual\\s+)?(?:human|person|agent|representative|operator)\\b`,
    'u',
  ),
  // "is there a human I can talk to", "are you a bot? I want a real person"
  /\bis (?:there|anyone|anybody) (?:a )?(?:real |live )?(?:human|person|agent|someone|anyone|anybody) (?:i can|to) (?:talk|speak|chat)\b/u,
];

/** The whole message is a person, optionally with please / now / asap ("Human please", "agent!"). */
const BARE_REQUEST =
  /^(?:(?:a|an|to|the)\s+)?(?:real\s+|live\s+)?(?:human|person|agent|representative|operator|customer service|human agent|live agent|live chat|real person)(?:\s+(?:please|pls|plz|now|asap))*$/u;

export function asksForPerson(text: string): boolean {
  const normalized = normalizeText(text);
  if (!normalized) return false;
  const stripped = normalized.replace(/^(?:please|pls|plz|hi|hello|hey)\s+/u, '');
  if (BARE_REQUEST.test(stripped)) return true;
  return REQUEST_PATTERNS.some((pattern) => pattern.test(normalized));
}
