/** The contact module: the public contact form and its messages, replies by e-mail, the newsletter (docs/contact.md). */
export { ContactRepository } from './contact.repository';
export { ContactService, type ContactAlertRecipient, type ContactPorts } from './contact.service';
export { NewsletterService } from './newsletter.service';
export { PublicFormLimits } from './public-form-limits';
export { newsletterSubscribeJob } from './contact.job';
export { contactRoutes } from './contact.routes';
