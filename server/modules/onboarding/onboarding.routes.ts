/**
 * HTTP edge of common/api/onboarding.ts: the public onboarding form and invitation page, the
 * administrators' review of requests, the offer → template mapping and the invitations of a client
 * (sessions only: no `config.scope`, so API keys cannot call them).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptInvitationInput,
  approvalOutcome,
  clientInvitationsParams,
  createInvitationInput,
  declineRequestInput,
  findOnboardingRequestsQuery,
  invitationAccepted,
  invitationParams,
  invitationSent,
  invitationsResponse,
  invitationTokenParams,
  invitationView,
  offerTemplateParams,
  offerTemplatesResponse,
  offerTemplateView,
  onboardingRequestAccepted,
  onboardingRequestInput,
  onboardingRequestParams,
  onboardingRequestsResponse,
  onboardingRequestView,
  publicInvitationView,
  setOfferTemplateInput,
} from '../../../common/api/onboarding';
import { requireUser } from '../../http/access';
import type { InvitationsService } from './invitations.service';
import type { OnboardingService } from './onboarding.service';

export const onboardingRoutes: FastifyPluginAsyncZod<{
  onboardingService: OnboardingService;
  invitationsService: InvitationsService;
  /** Per IP, per instance, for the invitation page's calls. */
  publicRateLimitPerMinute: number;
}> = async (app, { onboardingService: onboarding, invitationsService: invitations, publicRateLimitPerMinute }) => {
  const tags = ['onboarding'];
  const admin = { access: ['admin'] as const };
  const invitationLink = { access: 'public' as const, rateLimit: { max: publicRateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    '/api/v1/public/onboarding-requests',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Send the onboarding form of /client-signup (stored before the answer; 5 an hour per IP); a signed-in visitor's request carries their account",
        description:
          'A filled honeypot (`website`) or a form sent less than 3 s after `shownAt` is answered like any other and not stored. Past the limit: 429 with Retry-After.',
        body: onboardingRequestInput,
        response: { 201: onboardingRequestAccepted },
      },
    },
    async (request, reply) => {
      await onboarding.submit(request.body, { ip: request.ip, user: request.user });
      return reply.status(201).send({ ok: true });
    },
  );

  app.get(
    '/api/v1/onboarding/requests',
    {
      config: admin,
      schema: { tags, summary: 'Onboarding requests, newest first (the latest 500), with counts by status', querystring: findOnboardingRequestsQuery, response: { 200: onboardingRequestsResponse } },
    },
    async (request) => onboarding.findRequests(request.query.status),
  );

  app.post(
    '/api/v1/onboarding/requests/:id/approve',
    {
      config: admin,
      schema: {
        tags,
        summary:
          "Approve: the client from the form, the applicant's account linked (or invited), the offer's template applied, the agent set up, the subscription started, in one transaction (409 when already decided)",
        params: onboardingRequestParams,
        response: { 200: approvalOutcome },
      },
    },
    async (request) => onboarding.approve(requireUser(request), request.params.id),
  );

  app.post(
    '/api/v1/onboarding/requests/:id/decline',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Decline with a reason, e-mailed to the applicant (409 when already decided)',
        params: onboardingRequestParams,
        body: declineRequestInput,
        response: { 200: onboardingRequestView },
      },
    },
    async (request) => onboarding.decline(requireUser(request), request.params.id, request.body.reason),
  );

  app.get(
    '/api/v1/onboarding/offer-templates',
    { config: admin, schema: { tags, summary: 'The template each offer applies on approval', response: { 200: offerTemplatesResponse } } },
    async () => ({ offers: await onboarding.findOfferTemplates() }),
  );

  app.put(
    '/api/v1/onboarding/offer-templates/:offerId',
    {
      config: admin,
      schema: { tags, summary: "Set the offer's template (null: none)", params: offerTemplateParams, body: setOfferTemplateInput, response: { 200: offerTemplateView } },
    },
    async (request) => onboarding.setOfferTemplate(requireUser(request), request.params.offerId, request.body.templateId),
  );

  app.get(
    '/api/v1/clients/:clientId/invitations',
    { config: admin, schema: { tags, summary: "The client's invitations, newest first, with their status", params: clientInvitationsParams, response: { 200: invitationsResponse } } },
    async (request) => ({ invitations: await invitations.findInvitations(request.params.clientId) }),
  );

  app.post(
    '/api/v1/clients/:clientId/invitations',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Invite an e-mail address to the client (a plain account of that address is linked at once instead)',
        params: clientInvitationsParams,
        body: createInvitationInput,
        response: { 201: invitationSent },
      },
    },
    async (request, reply) => reply.status(201).send(await invitations.invite(requireUser(request), request.params.clientId, request.body.email)),
  );

  app.post(
    '/api/v1/invitations/:id/resend',
    { config: admin, schema: { tags, summary: 'E-mail a new link (the old one stops working) valid for 7 days', params: invitationParams, response: { 200: invitationView } } },
    async (request) => invitations.resend(requireUser(request), request.params.id),
  );

  app.post(
    '/api/v1/invitations/:id/revoke',
    { config: admin, schema: { tags, summary: 'Revoke an invitation: its link stops working', params: invitationParams, response: { 200: invitationView } } },
    async (request) => invitations.revoke(requireUser(request), request.params.id),
  );

  app.get(
    '/api/v1/public/invitations/:token',
    {
      config: invitationLink,
      schema: {
        tags,
        summary: 'What an invitation link shows: the business and the address, or why it no longer works (404 for an unknown link)',
        params: invitationTokenParams,
        response: { 200: publicInvitationView },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow').send(await invitations.publicView(request.params.token)),
  );

  app.post(
    '/api/v1/public/invitations/:token/accept',
    {
      config: invitationLink,
      schema: {
        tags,
        summary: "Accept with a new account (name and password): a client user of the business, e-mail verified (410 for a dead link, 409 when the address has an account)",
        params: invitationTokenParams,
        body: acceptInvitationInput,
        response: { 200: invitationAccepted },
      },
    },
    async (request) => invitations.accept(request.params.token, { name: request.body.name, password: request.body.password }),
  );

  app.post(
    '/api/v1/public/invitations/:token/join',
    {
      config: invitationLink,
      schema: {
        tags,
        summary: "Accept with the address's existing account, which joins the business (410 for a dead link, 409 when that account cannot join)",
        params: invitationTokenParams,
        response: { 200: invitationAccepted },
      },
    },
    async (request) => invitations.join(request.params.token),
  );
};
