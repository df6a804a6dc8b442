/** The email module: transactional e-mail, queued and sent over SMTP (or kept in the outbox). */
export { EmailService } from './email.service';
export {
  accountExistsEmail,
  contactMessageEmail,
  contactReplyEmail,
  escalationEmail,
  newsletterConfirmEmail,
  newsletterHeaders,
  passwordResetEmail,
  verificationEmail,
  webhookDisabledEmail,
  type RenderedEmail,
} from './email.templates';
