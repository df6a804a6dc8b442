/**
 * HTTP edge of common/api/contact.ts: the public contact form and newsletter box, the links in
 * newsletter e-mails, and the administrators' messages and subscriber list (sessions only: no
 * `config.scope`, so API keys cannot call them).
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contactFormAccepted,
  contactFormInput,
  contactMessageDetail,
  contactMessageParams,
  contactMessagesResponse,
  contactReplyInput,
  NEWSLETTER_ACCEPTED_MESSAGE,
  NEWSLETTER_UNSUBSCRIBED_MESSAGE,
  newsletterAccepted,
  newsletterSubscribeInput,
  newsletterSubscribersResponse,
  newsletterTokenQuery,
  newsletterUnsubscribed,
} from '../../../common/api/contact';
import { requireUser } from '../../http/access';
import { notFound } from '../../lib/errors';
import type { ContactService } from './contact.service';
import type { NewsletterLinkOutcome, NewsletterService } from './newsletter.service';

/** Where the newsletter links land: the blog page, which says what happened. */
const blogPage = (outcome: NewsletterLinkOutcome) => `/blog?newsletter=${outcome}`;

/** How mail providers post an RFC 8058 one-click unsubscribe (`List-Unsubscribe=One-Click`). */
const ONE_CLICK_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export const contactRoutes: FastifyPluginAsyncZod<{ contactService: ContactService; newsletterService: NewsletterService }> = async (
  app,
  { contactService, newsletterService },
) => {
  const tags = ['contact'];
  const publicAccess = { access: 'public' as const };
  const admin = { access: ['admin'] as const };

  app.post(
    '/api/v1/public/contact',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Send the contact form (stored before the answer; 5 per 10 minutes per IP)',
        description:
          'A filled honeypot (`website`) or a form sent less than 3 s after `shownAt` is answered like any other and not stored. Past the limit: 429 with Retry-After.',
        body: contactFormInput,
        response: { 201: contactFormAccepted },
      },
    },
    async (request, reply) => {
      await contactService.submit(request.body, { ip: request.ip });
      return reply.status(201).send({ ok: true });
    },
  );

  app.post(
    '/api/v1/public/newsletter',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Subscribe to the newsletter (double opt-in: a confirmation e-mail; 5 per 10 minutes per IP)',
        description: 'Always 202 with the same message, whether the address was new, pending or subscribed.',
        body: newsletterSubscribeInput,
        response: { 202: newsletterAccepted },
      },
    },
    async (request, reply) => {
      await newsletterService.requestSubscription(request.body, { ip: request.ip });
      return reply.status(202).send({ message: NEWSLETTER_ACCEPTED_MESSAGE });
    },
  );

  // The e-mails' links change state on GET (the contract's one-click links), so no HEAD twin: a
  // link checker's HEAD gets a 404 instead of confirming or unsubscribing.
  app.get(
    '/newsletter/confirm',
    {
      config: publicAccess,
      exposeHeadRoute: false,
      schema: { tags, summary: "The confirmation e-mail's link: subscribed, then 303 to /blog?newsletter=confirmed (or =invalid)", querystring: newsletterTokenQuery },
    },
    async (request, reply) => {
      const outcome = await newsletterService.confirm(request.query.token);
      return reply.header('cache-control', 'no-store').redirect(blogPage(outcome), 303);
    },
  );

  app.get(
    '/newsletter/unsubscribe',
    {
      config: publicAccess,
      exposeHeadRoute: false,
      schema: { tags, summary: "Every newsletter e-mail's unsubscribe link: unsubscribed, then 303 to /blog?newsletter=unsubscribed (or =invalid)", querystring: newsletterTokenQuery },
    },
    async (request, reply) => {
      const outcome = await newsletterService.unsubscribe(request.query.token);
      return reply.header('cache-control', 'no-store').redirect(blogPage(outcome), 303);
    },
  );

  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    // The body says only `List-Unsubscribe=One-Click`; the token in the URL is what counts.
    oneClick.addContentTypeParser(ONE_CLICK_CONTENT_TYPES, { parseAs: 'string', bodyLimit: 4_096 }, (_request, body, done) => {
      done(null, body);
    });
    oneClick.post(
      '/newsletter/unsubscribe',
      {
        // Posted by mail providers (RFC 8058), never with a session or a CSRF token.
        config: { ...publicAccess, csrf: false },
        schema: {
          tags,
          summary: 'One-click unsubscribe (RFC 8058, List-Unsubscribe-Post): 200, or 404 for an unknown link',
          querystring: newsletterTokenQuery,
          response: { 200: newsletterUnsubscribed },
        },
      },
      async (request) => {
        if ((await newsletterService.unsubscribe(request.query.token)) === 'invalid') throw notFound('Unsubscribe link');
        return { message: NEWSLETTER_UNSUBSCRIBED_MESSAGE };
      },
    );
  });

  app.get(
    '/api/v1/contact-messages',
    { config: admin, schema: { tags, summary: 'Contact messages, newest first (the latest 500), with the unread count', response: { 200: contactMessagesResponse } } },
    async () => contactService.findMessages(),
  );

  app.get(
    '/api/v1/contact-messages/:id',
    {
      config: admin,
      schema: { tags, summary: 'One contact message with its replies; marks it read', params: contactMessageParams, response: { 200: contactMessageDetail } },
    },
    async (request) => contactService.openMessage(request.params.id, requireUser(request).id),
  );

  app.delete(
    '/api/v1/contact-messages/:id',
    { config: admin, schema: { tags, summary: 'Delete a contact message and its replies', params: contactMessageParams } },
    async (request, reply) => {
      await contactService.deleteMessage(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/contact-messages/:id/reply',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Reply by e-mail from Parley (SMTP or the outbox), recorded on the message',
        params: contactMessageParams,
        body: contactReplyInput,
        response: { 201: contactMessageDetail },
      },
    },
    async (request, reply) => reply.status(201).send(await contactService.reply(request.params.id, { id: requireUser(request).id }, request.body.body)),
  );

  app.get(
    '/api/v1/newsletter-subscribers',
    { config: admin, schema: { tags, summary: 'Newsletter subscribers, newest first, with counts by status', response: { 200: newsletterSubscribersResponse } } },
    async () => newsletterService.findSubscribers(),
  );

  app.get(
    '/api/v1/newsletter-subscribers.csv',
    { config: admin, schema: { tags, summary: 'Newsletter subscribers as CSV', produces: ['text/csv'] } },
    async (_request, reply) => {
      const { filename, csv } = await newsletterService.exportCsv();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};
