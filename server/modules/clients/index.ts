/** The clients module: the businesses Parley serves, their status and their automation switches. */
export { ClientsService } from './clients.service';
export { ClientsRepository } from './clients.repository';
export { ClientStateService, clientDashboardLink, type ClientAlertRecipient, type ClientStatePorts } from './client-state.service';
