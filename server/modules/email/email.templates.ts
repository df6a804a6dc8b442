/** Plain, readable e-mails: a text part and a minimal HTML part with the same content. */
export interface RenderedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function render(kind: string, subject: string, paragraphs: string[], action?: { label: string; url: string }): RenderedEmail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '— Parley'].join('\n\n');
  const html = [
    '<div style="font-family:system-ui,sans-serif;max-width:560px;line-height:1.5">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
    '<p>— Parley</p></div>',
  ].join('');
  return { kind, subject, text, html };
}

export function verificationEmail(name: string, url: string): RenderedEmail {
  return render(
    'verification',
    'Verify your email address',
    [`Hi ${name},`, 'Confirm your email address to finish creating your Parley account. The link expires in 1 hour and works once.'],
    { label: 'Verify email', url },
  );
}

export function passwordResetEmail(name: string, url: string): RenderedEmail {
  return render(
    'password_reset',
    'Reset your password',
    [
      `Hi ${name},`,
      'Someone asked to reset the password of your Parley account. If it was you, choose a new password; the link expires in 1 hour and works once.',
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ],
    { label: 'Reset password', url },
  );
}

export function accountExistsEmail(name: string, signInUrl: string, resetUrl: string): RenderedEmail {
  return render(
    'account_exists',
    'You already have a Parley account',
    [
      `Hi ${name},`,
      'Someone tried to create a Parley account with this email address, which already has one.',
      `If it was you, sign in at ${signInUrl}, or reset your password at ${resetUrl}. If it was not you, no action is needed.`,
    ],
  );
}

/** A conversation the AI agent handed to people (sent to admins and managers who want e-mail alerts). */
export function escalationEmail(name: string, input: { clientName: string; contactName: string; reason: string; excerpt: string; url: string }): RenderedEmail {
  return render(
    'conversation-escalated',
    `Conversation escalated: ${input.contactName} (${input.clientName})`,
    [`Hi ${name},`, `The AI agent handed a conversation with ${input.contactName} (${input.clientName}) to a person: ${input.reason}.`, `Last message: “${input.excerpt}”`],
    { label: 'Open the conversation', url: input.url },
  );
}

/** A webhook subscription Parley turned off after its endpoint kept failing (admins and the owning client's users). */
export function webhookDisabledEmail(name: string, input: { subscriptionName: string; url: string; reason: string; link: string }): RenderedEmail {
  return render(
    'webhook-disabled',
    `Webhook turned off: ${input.subscriptionName}`,
    [
      `Hi ${name},`,
      `Parley turned off the webhook subscription “${input.subscriptionName}” (${input.url}): ${input.reason}`,
      'No events are sent to it until it is turned on again. Check the endpoint, then activate the subscription on the Webhooks page; failed deliveries can be redelivered from its delivery log.',
    ],
    { label: 'Open the Webhooks page', url: input.link },
  );
}
