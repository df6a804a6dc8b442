import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardStats } from '../../../common/api/dashboard';
import { requireUser } from '../../http/access';
import type { DashboardService } from './dashboard.service';

/** HTTP edge of common/api/dashboard.ts. */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboardService: DashboardService }> = async (app, { dashboardService }) => {
  app.get(
    '/api/v1/dashboard/stats',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard's four figures: the last 7 days against the 7 before (a client user's: their business's)",
        response: { 200: dashboardStats },
      },
    },
    async (request) => dashboardService.stats(requireUser(request)),
  );
};
