/** The api-keys module: personal and service-account API keys, and resolving them on requests. */
export { ApiKeysService, type ApiKeyActor } from './api-keys.service';
