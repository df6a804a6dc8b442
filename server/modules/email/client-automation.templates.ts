/** E-mails about a client's automation switches (docs/client-dashboard.md). */
import { render, type RenderedEmail } from './email.templates';

/**
 * To an administrator who takes e-mail: a client's automation was paused (the AI agent stops
 * answering its customers, its event-triggered automations do not start) or resumed.
 */
export function clientAutomationEmail(
  name: string,
  input: { paused: boolean; clientName: string; changedBy: string; at: Date; url: string },
): RenderedEmail {
  const when = input.at.toISOString().replace('T', ' ').slice(0, 16);
  return render(
    input.paused ? 'client-automation-paused' : 'client-automation-resumed',
    `${input.paused ? 'Automation paused' : 'Automation resumed'}: ${input.clientName}`.slice(0, 200),
    [
      `Hi ${name},`,
      input.paused
        ? `${input.changedBy} paused the automation of ${input.clientName} at ${when} UTC.`
        : `${input.changedBy} resumed the automation of ${input.clientName} at ${when} UTC.`,
      input.paused
        ? "Until it is resumed, the AI agent does not answer this client's customers: they get the away message and their conversations are handed to people. The client's event-triggered automations do not start."
        : "The AI agent answers this client's customers again, and its event-triggered automations start again. Conversations handed to people while it was paused stay with them.",
    ],
    { label: 'Open the client dashboard', url: input.url },
  );
}
