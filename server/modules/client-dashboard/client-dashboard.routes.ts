/**
 * HTTP edge of common/api/client-dashboard.ts: admins and managers any client, a client user only
 * their own (another client's id answers 404, in the service).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { automationSettingsView, clientDashboardView, setLeadQualificationInput, updateAgentSettingsInput } from '../../../common/api/client-dashboard';
import { requireUser } from '../../http/access';
import type { ClientDashboardService } from './client-dashboard.service';

const clientParams = z.object({ clientId: z.uuid() });

export const clientDashboardRoutes: FastifyPluginAsyncZod<{ clientDashboardService: ClientDashboardService }> = async (app, { clientDashboardService: service }) => {
  const tags = ['client-dashboard'];
  const config = { access: ['admin', 'manager', 'client'] as const };

  app.get(
    '/api/v1/clients/:clientId/dashboard',
    {
      config,
      schema: {
        tags,
        summary: "A client's dashboard: header, the last 30 days' figures and daily series, recent conversations, automation settings",
        params: clientParams,
        response: { 200: clientDashboardView },
      },
    },
    async (request) => service.getDashboard(requireUser(request), request.params.clientId),
  );

  app.patch(
    '/api/v1/clients/:clientId/agent-settings',
    {
      config,
      schema: {
        tags,
        summary: "Auto-response (the AI agent on or off), the agent's business hours and what happens outside them",
        params: clientParams,
        body: updateAgentSettingsInput,
        response: { 200: automationSettingsView },
      },
    },
    async (request) => service.updateAgentSettings(requireUser(request), request.params.clientId, request.body),
  );

  app.put(
    '/api/v1/clients/:clientId/lead-qualification',
    {
      config,
      schema: {
        tags,
        summary: "Lead qualification on or off: whether customers' messages can make the client's conversations leads",
        params: clientParams,
        body: setLeadQualificationInput,
        response: { 200: automationSettingsView },
      },
    },
    async (request) => service.setLeadQualification(requireUser(request), request.params.clientId, request.body.enabled),
  );
};
