/** The clients module: the businesses Parley serves. */
export { ClientsService } from './clients.service';
