/**
 * The notifications module: what people are told in the app (the bell), and the administrators'
 * error alerts (jobs and webhook deliveries that keep failing; docs/admin-settings.md).
 */
export { NotificationsService, type NotifyInput } from './notifications.service';
export { ErrorAlertsService, type AlertAdmin, type ErrorAlertPorts } from './error-alerts.service';
export { errorAlertsCheckJob } from './error-alerts.job';
