/** The notifications module: what people are told in the app (the bell). */
export { NotificationsService, type NotifyInput } from './notifications.service';
