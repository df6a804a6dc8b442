/** The system module: health, the secrets key check, the control commands and app-wide settings. */
export { HealthService } from './health.service';
export { AppSettingsService } from './app-settings.service';
export { BackupsService, type BackupRecord } from './backups.service';
