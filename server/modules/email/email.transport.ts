import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers (List-Unsubscribe, Reply-To). */
  headers?: Readonly<Record<string, string>> | null;
}

export interface EmailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(email: OutgoingEmail): Promise<{ messageId: string | null }>;
}

/** SMTP through nodemailer; SMTP_URL carries host, port, credentials and TLS (smtps://). */
export function createSmtpTransport(url: string, from: string): EmailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(email) {
      const info = await transporter.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.headers ? { headers: { ...email.headers } } : {}),
      });
      return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
    },
  };
}

/**
 * Without SMTP, messages stay in the `emails` table (admins read them at /admin/outbox) and are
 * printed to the server log, links included, so a developer can follow them.
 */
export function createOutboxTransport(logger: Logger): EmailTransport {
  return {
    kind: 'outbox',
    send(email) {
      logger.info(`E-mail to ${email.to} (not sent: SMTP_URL is not set; read it at /admin/outbox)\nSubject: ${email.subject}\n\n${email.text}`);
      return Promise.resolve({ messageId: null });
    },
  };
}
