/** Plain, readable e-mails: a text part and a minimal HTML part with the same content. */
import { escapeHtml } from '../../lib/html';

export interface RenderedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, Reply-To), sent over SMTP as given. */
  headers?: Readonly<Record<string, string>>;
}

/** A template's e-mail: its paragraphs, an optional action link and footer, as text and minimal HTML. */
export function render(
  kind: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  footer?: { text: string; link: { label: string; url: string } },
): RenderedEmail {
  const text = [
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    '— Parley',
    ...(footer ? [`${footer.text} ${footer.link.label}: ${footer.link.url}`] : []),
  ].join('\n\n');
  const html = [
    // pre-line: line breaks a person typed (a contact message, a reply) stay line breaks.
    '<div style="font-family:system-ui,sans-serif;max-width:560px;line-height:1.5;white-space:pre-line">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
    '<p>— Parley</p>',
    ...(footer ? [`<p style="font-size:12px;color:#666">${escapeHtml(footer.text)} <a href="${escapeHtml(footer.link.url)}">${escapeHtml(footer.link.label)}</a></p>`] : []),
    '</div>',
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

/** A visitor's contact form message, to an administrator who takes e-mail notifications; Reply-To is the visitor. */
export function contactMessageEmail(
  name: string,
  input: { senderName: string; senderEmail: string; company: string | null; message: string; url: string },
): RenderedEmail {
  const from = `${input.senderName} <${input.senderEmail}>${input.company ? ` (${input.company})` : ''}`;
  return {
    ...render(
      'contact-message',
      `New contact message from ${input.senderName}`.slice(0, 200),
      [`Hi ${name},`, `${from} wrote through the contact form:`, input.message, 'Answer from the Messages panel: Reply sends an e-mail from Parley and keeps it with the message.'],
      { label: 'Open the messages', url: input.url },
    ),
    headers: { 'Reply-To': input.senderEmail },
  };
}

/** Parley's answer to a contact form message, quoting it. */
export function contactReplyEmail(input: { firstName: string; reply: string; original: string; sentAt: Date }): RenderedEmail {
  const quoted = input.original
    .split(/\r?\n/u)
    .map((line) => `> ${line}`)
    .join('\n');
  return render('contact-reply', 'Re: your message to Parley', [
    `Hi ${input.firstName},`,
    input.reply,
    `You wrote on ${input.sentAt.toUTCString()}:`,
    quoted,
  ]);
}

/**
 * The newsletter's double opt-in: the confirmation link and, as in every newsletter e-mail, an
 * unsubscribe link in the body and in the List-Unsubscribe headers (RFC 2369; RFC 8058 one-click).
 */
export function newsletterConfirmEmail(input: { confirmUrl: string; unsubscribeUrl: string; expiresInDays: number }): RenderedEmail {
  return {
    ...render(
      'newsletter-confirm',
      'Confirm your subscription to the Parley newsletter',
      [
        'Hi,',
        `Someone — hopefully you — asked to receive the Parley newsletter at this address. Confirm to start receiving it; the link works for ${input.expiresInDays} days.`,
        'If it was not you, ignore this e-mail: you will not be subscribed.',
      ],
      { label: 'Confirm subscription', url: input.confirmUrl },
      { text: 'Do not want these e-mails?', link: { label: 'Unsubscribe', url: input.unsubscribeUrl } },
    ),
    headers: newsletterHeaders(input.unsubscribeUrl),
  };
}

/** The headers every newsletter e-mail carries: mail clients show an Unsubscribe button, one click (RFC 8058). */
export function newsletterHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The test e-mail an administrator sends from the Production Readiness page to see SMTP deliver. */
export function testEmail(name: string, input: { server: string; url: string }): RenderedEmail {
  return render(
    'smtp-test',
    'Parley test e-mail',
    [
      `Hi ${name},`,
      `This is the test e-mail you sent from Parley's Production Readiness page. It reached you through the SMTP server ${input.server}, so Parley's e-mails (password resets, verification links, alerts) can reach people too.`,
      'Nothing else to do: the page marks the e-mail check complete once the server has accepted this message.',
    ],
    { label: 'Open Production Readiness', url: input.url },
  );
}

/** The production readiness score dropped, or an item became critical (to every administrator who takes e-mail). */
export function readinessAlertEmail(name: string, input: { title: string; lines: readonly string[]; url: string }): RenderedEmail {
  return render('readiness-alert', input.title.slice(0, 200), [`Hi ${name},`, `${input.title}.`, ...input.lines], { label: 'Open Production Readiness', url: input.url });
}

/** One figure of an e-mailed report, as the reader reads it: this period's value, the previous period's and the change. */
export interface ReportFigure {
  label: string;
  value: string;
  previous: string;
  /** '+2 (+100 %)', '−5 pts'; empty when there is nothing to compare. */
  change: string;
}

/**
 * The daily or weekly report (docs/insights.md, "Reports by e-mail"): the period's figures against
 * the period before as a table, a ranking (top clients), a link to the insights of the period and
 * one to the notification preferences that switch it off — also as List-Unsubscribe (RFC 2369: a
 * page, not one-click, since the preference is changed signed in).
 */
export function reportEmail(input: {
  kind: 'daily-report' | 'weekly-report';
  subject: string;
  name: string;
  intro: string;
  /** A sentence shown above the figures (a period without conversations). */
  note?: string | null;
  /** The columns' headings: 'This day' / 'Day before'. */
  columns: { value: string; previous: string };
  figures: readonly ReportFigure[];
  ranking?: { title: string; rows: readonly string[] } | null;
  action: { label: string; url: string };
  manage: { text: string; label: string; url: string };
}): RenderedEmail {
  const previousLower = input.columns.previous.toLowerCase();
  const figureLine = (f: ReportFigure) => `${f.label}: ${f.value} (${previousLower}: ${f.previous}${f.change ? `; ${f.change}` : ''})`;
  const text = [
    `Hi ${input.name},`,
    input.intro,
    ...(input.note ? [input.note] : []),
    input.figures.map(figureLine).join('\n'),
    ...(input.ranking && input.ranking.rows.length > 0 ? [[`${input.ranking.title}:`, ...input.ranking.rows.map((row, i) => `${i + 1}. ${row}`)].join('\n')] : []),
    `${input.action.label}: ${input.action.url}`,
    '— Parley',
    `${input.manage.text} ${input.manage.label}: ${input.manage.url}`,
  ].join('\n\n');
  const cell = 'padding:4px 12px 4px 0;text-align:left;vertical-align:top';
  const html = [
    '<div style="font-family:system-ui,sans-serif;max-width:560px;line-height:1.5">',
    `<p>${escapeHtml(`Hi ${input.name},`)}</p>`,
    `<p>${escapeHtml(input.intro)}</p>`,
    ...(input.note ? [`<p><strong>${escapeHtml(input.note)}</strong></p>`] : []),
    '<table style="border-collapse:collapse;font-size:14px">',
    `<thead><tr><th style="${cell}"></th><th style="${cell}">${escapeHtml(input.columns.value)}</th><th style="${cell}">${escapeHtml(input.columns.previous)}</th><th style="${cell}">Change</th></tr></thead>`,
    '<tbody>',
    ...input.figures.map(
      (f) =>
        `<tr><th scope="row" style="${cell};font-weight:normal">${escapeHtml(f.label)}</th><td style="${cell}"><strong>${escapeHtml(f.value)}</strong></td><td style="${cell}">${escapeHtml(f.previous)}</td><td style="${cell}">${escapeHtml(f.change)}</td></tr>`,
    ),
    '</tbody></table>',
    ...(input.ranking && input.ranking.rows.length > 0
      ? [`<p>${escapeHtml(input.ranking.title)}:</p><ol>`, ...input.ranking.rows.map((row) => `<li>${escapeHtml(row)}</li>`), '</ol>']
      : []),
    `<p><a href="${escapeHtml(input.action.url)}">${escapeHtml(input.action.label)}</a></p>`,
    '<p>— Parley</p>',
    `<p style="font-size:12px;color:#666">${escapeHtml(input.manage.text)} <a href="${escapeHtml(input.manage.url)}">${escapeHtml(input.manage.label)}</a></p>`,
    '</div>',
  ].join('');
  return { kind: input.kind, subject: input.subject.slice(0, 200), text, html, headers: { 'List-Unsubscribe': `<${input.manage.url}>` } };
}
