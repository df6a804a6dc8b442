/**
 * HTTP edge of common/api/automations.ts. The portal's routes take a session (admins change
 * automations; admins, managers and the client's own users read, run and pause/resume them — the
 * service scopes every read, so another client's automation is a 404). The workflow's callbacks
 * take no session and no CSRF token: the execution's Bearer token, checked before the body is.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  automationMessagesResponse,
  automationMessageView,
  automationStatusInput,
  automationsResponse,
  automationView,
  CALLBACK_GRACE_MS,
  createAutomationInput,
  createdAutomation,
  executionsResponse,
  executionUpdateInput,
  executionView,
  MESSAGE_METADATA_MAX_BYTES,
  stepMessageInput,
  updateAutomationInput,
} from '../../../common/api/automations';
import { requireUser } from '../../http/access';
import { AppError } from '../../lib/errors';
import type { AutomationsService, CallbackContext } from './automations.service';

const idParams = z.object({ id: z.uuid() });

export const automationsRoutes: FastifyPluginAsyncZod<{ automationsService: AutomationsService }> = async (app, { automationsService: service }) => {
  const tags = ['automations'];
  const admin = { access: ['admin'] as const };
  const anyone = { access: 'signed-in' as const };
  const read = { ...anyone, scope: 'automations:read' as const };
  const run = { ...anyone, scope: 'automations:run' as const };

  app.get(
    '/api/v1/automations',
    { config: read, schema: { tags, summary: 'Automations, newest first (client users: their client’s)', response: { 200: automationsResponse } } },
    async (request) => ({ automations: await service.list(requireUser(request)) }),
  );

  app.post(
    '/api/v1/automations',
    {
      config: admin,
      schema: { tags, summary: 'Create an automation; its signing secret is shown this once', body: createAutomationInput, response: { 201: createdAutomation } },
    },
    async (request, reply) => reply.status(201).send(await service.create(requireUser(request), request.body)),
  );

  app.get(
    '/api/v1/automations/:id',
    { config: read, schema: { tags, summary: 'One automation', params: idParams, response: { 200: automationView } } },
    async (request) => service.get(requireUser(request), request.params.id),
  );

  app.patch(
    '/api/v1/automations/:id',
    { config: admin, schema: { tags, summary: 'Change an automation (only the fields given)', params: idParams, body: updateAutomationInput, response: { 200: automationView } } },
    async (request) => service.update(request.params.id, request.body),
  );

  app.delete(
    '/api/v1/automations/:id',
    { config: admin, schema: { tags, summary: 'Delete an automation with its executions and messages', params: idParams } },
    async (request, reply) => {
      await service.remove(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/automations/:id/status',
    {
      config: run,
      schema: { tags, summary: 'Pause, resume or deactivate an automation', params: idParams, body: automationStatusInput, response: { 200: automationView } },
    },
    async (request) => service.setStatus(requireUser(request), request.params.id, request.body.status),
  );

  app.post(
    '/api/v1/automations/:id/rotate-secret',
    { config: admin, schema: { tags, summary: 'A new signing secret, shown this once', params: idParams, response: { 200: createdAutomation } } },
    async (request) => service.rotateSecret(request.params.id),
  );

  app.post(
    '/api/v1/automations/:id/run',
    {
      config: run,
      schema: {
        tags,
        summary: 'Run: stores a running execution and POSTs the signed trigger to the workflow URL (by a job)',
        description:
          'Refused with "Workflow URL not configured" (400) when the automation has no workflow URL, while it is inactive (409), and while its client has paused its automation (409, reason client_paused). ' +
          'The workflow receives `{execution_id, automation_config, client_id, timestamp, callback: {messages_url, status_url, token}}`, signed with ' +
          '`X-Parley-Timestamp` and `X-Parley-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` keyed with the automation’s signing secret. ' +
          'A non-2xx answer makes the execution an error ("HTTP error! status: <code>"); a JSON answer with `execution_id` or `id` is kept as the external execution id.',
        params: idParams,
        response: { 201: executionView },
      },
    },
    async (request, reply) => reply.status(201).send(await service.run(requireUser(request), request.params.id)),
  );

  app.get(
    '/api/v1/automations/:id/executions',
    { config: read, schema: { tags, summary: 'Execution history, newest first (50 at most)', params: idParams, response: { 200: executionsResponse } } },
    async (request) => ({ executions: await service.listExecutions(requireUser(request), request.params.id) }),
  );

  app.get(
    '/api/v1/automations/:id/messages',
    { config: read, schema: { tags, summary: 'Step messages, newest first (100 at most)', params: idParams, response: { 200: automationMessagesResponse } } },
    async (request) => ({ messages: await service.listMessages(requireUser(request), request.params.id) }),
  );

  app.get(
    '/api/v1/automation-executions/:id',
    { config: read, schema: { tags, summary: 'One execution', params: idParams, response: { 200: executionView } } },
    async (request) => service.getExecution(requireUser(request), request.params.id),
  );
};

const CALLBACK_DOC = `Called by the workflow, not by a browser: no session, no CSRF token. Authenticated by \`Authorization: Bearer <callback.token>\` from the run's trigger request; the token works for this execution only, until ${CALLBACK_GRACE_MS / 60_000} minutes after it finished. A wrong, foreign or expired token answers 401. An API key with the scope \`automations:report\` works too, for any execution its user can see (another client's answers 404).`;

/** The workflow's side: step messages and status reports, by the execution's Bearer token. */
export const automationCallbackRoutes: FastifyPluginAsyncZod<{ automationsService: AutomationsService }> = async (app, { automationsService: service }) => {
  const tags = ['automation callbacks'];
  const callback = { access: 'signature' as const, csrf: false, scope: 'automations:report' as const };
  // Any id string reaches the token check, so a malformed id answers 401 like an unknown one.
  const params = z.object({ id: z.string().max(100).describe('The execution id (execution_id of the trigger request)') });
  const headers = z.looseObject({ authorization: z.string().max(600).optional().describe('Bearer <callback.token>') });
  const contexts = new WeakMap<FastifyRequest, CallbackContext>();
  const authenticate = async (request: FastifyRequest) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    const executionId = typeof id === 'string' ? id : '';
    // An API key (resolved and scope-checked by the access hook) instead of the execution's token.
    if (request.apiKey) contexts.set(request, await service.callbackContextFor(requireUser(request), executionId));
    else contexts.set(request, await service.authenticateCallback(executionId, request.headers.authorization));
  };
  const contextOf = (request: FastifyRequest): CallbackContext => {
    const context = contexts.get(request);
    if (!context) throw new AppError('UNAUTHENTICATED', 'Invalid or expired callback token');
    return context;
  };

  app.post(
    '/api/v1/automation-executions/:id/messages',
    {
      config: callback,
      bodyLimit: 64 * 1024,
      preValidation: authenticate,
      schema: {
        tags,
        summary: 'A step message from the running workflow (shown live in the portal)',
        description: `${CALLBACK_DOC}\n\n\`metadata\` must be a JSON object of at most ${MESSAGE_METADATA_MAX_BYTES / 1024} KB; \`message_type\` is free text (the portal colours success, warning, error and debug; anything else is info).`,
        params,
        headers,
        body: stepMessageInput,
        response: { 201: automationMessageView },
      },
    },
    async (request, reply) => reply.status(201).send(await service.postMessage(contextOf(request), request.body)),
  );

  app.patch(
    '/api/v1/automation-executions/:id',
    {
      config: callback,
      bodyLimit: 16 * 1024,
      preValidation: authenticate,
      schema: {
        tags,
        summary: "The execution's status, error message or the workflow's own execution id",
        description: `${CALLBACK_DOC}\n\nStatuses only move forward: running → waiting → success | error | canceled (409 otherwise; the same status again is accepted). A final status sets finished_at and duration_ms once. The external execution id is kept once set.`,
        params,
        headers,
        body: executionUpdateInput,
        response: { 200: executionView },
      },
    },
    async (request) => service.reportStatus(contextOf(request), request.body),
  );
};
