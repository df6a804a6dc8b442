/** The email module: transactional e-mail, queued and sent over SMTP (or kept in the outbox). */
export { EmailService } from './email.service';
export { accountExistsEmail, escalationEmail, passwordResetEmail, verificationEmail, webhookDisabledEmail, type RenderedEmail } from './email.templates';
