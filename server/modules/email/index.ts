/** The email module: transactional e-mail, queued and sent over SMTP (or kept in the outbox). */
export { EmailService } from './email.service';
export type { EmailDeliveryCounts } from './email.repository';
export {
  accountExistsEmail,
  contactMessageEmail,
  contactReplyEmail,
  escalationEmail,
  newsletterConfirmEmail,
  newsletterHeaders,
  passwordResetEmail,
  readinessAlertEmail,
  reportEmail,
  testEmail,
  verificationEmail,
  webhookDisabledEmail,
  type RenderedEmail,
  type ReportFigure,
} from './email.templates';
export { clientAutomationEmail } from './client-automation.templates';
export { errorAlertEmail } from './admin-settings.templates';
export {
  clientAccessEmail,
  clientInvitationEmail,
  onboardingApprovedEmail,
  onboardingDeclinedEmail,
  onboardingReceivedEmail,
  onboardingRequestAdminEmail,
} from './onboarding.templates';
export { invoiceOverdueEmail } from './billing.templates';
