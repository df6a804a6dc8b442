/**
 * The client dashboard module (issue 17 §2; docs/client-dashboard.md): one business's header,
 * figures of the last 30 days, recent conversations and automation settings. Owns no table; reads
 * a view of clients and conversations, and everything else through the ports app.ts fills in
 * (the plan from onboarding or billing, insights' service levels, agents' settings, clients' lead
 * qualification).
 */
export {
  ClientDashboardService,
  type ClientDashboardPorts,
  type DashboardAgentSettings,
  type DashboardPlan,
  type DashboardServiceLevelDay,
} from './client-dashboard.service';
export { clientDashboardRoutes } from './client-dashboard.routes';
