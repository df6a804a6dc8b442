import type { ContactMessage } from '@common/api/contact';

export function senderName(message: Pick<ContactMessage, 'firstName' | 'lastName'>): string {
  return `${message.firstName} ${message.lastName}`.trim();
}

const QUOTE_MAX = 800;

/** "Reply by e-mail" (spec part 2: Reply via a mail link): the sender's address, a subject, their message quoted. */
export function mailtoReply(message: Pick<ContactMessage, 'email' | 'firstName' | 'message'>): string {
  // Mail clients refuse very long mailto: links; the quote is only a reminder of the message.
  const text = message.message.length > QUOTE_MAX ? `${message.message.slice(0, QUOTE_MAX)}…` : message.message;
  const quoted = text
    .split(/\r?\n/u)
    .map((line) => `> ${line}`)
    .join('\n');
  const body = `Hi ${message.firstName},\n\n\n\n${quoted}`;
  return `mailto:${encodeURIComponent(message.email).replace(/%40/gu, '@')}?subject=${encodeURIComponent('Re: your message')}&body=${encodeURIComponent(body)}`;
}
