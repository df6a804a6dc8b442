/**
 * The dashboard module: the dashboard's stat cards with their week-over-week change (spec part 1
 * §2.13). Imports no module: the demo client comes through the DashboardPorts app.ts fills in.
 */
export { DashboardService, type DashboardPorts } from './dashboard.service';
export { dashboardRoutes } from './dashboard.routes';
