import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation';
import * as messaging from './0002-messaging';
import * as presence from './0003-presence';
import * as agents from './0004-agents';
import * as hotPaths from './0005-hot-paths';
import * as sendAttempts from './0007-send-attempts';
import * as inbox from './0009-inbox';
import * as sqlRoutines from './0010-sql-routines';
import * as agentHybrid from './0011-agent-hybrid';
import * as understanding from './0012-understanding';
import * as automations from './0013-automations';
import * as workflows from './0014-workflows';
import * as n8n from './0015-n8n';
import * as events from './0016-events';
import * as hooks from './0017-hooks';
import * as apiKeys from './0018-api-keys';
import * as automationTriggers from './0019-automation-triggers';
import * as finishSendLocal from './0020-finish-send-local';
import * as hooksRetrying from './0021-hooks-retrying';
import * as hooksRetention from './0022-hooks-retention';
import * as content from './0023-content';
import * as contact from './0024-contact';
import * as contactFormEvent from './0025-contact-form-event';
import * as jobCoalescing from './0026-job-coalescing';
import * as insights from './0027-insights';
import * as satisfaction from './0028-satisfaction';
import * as scheduledRuns from './0029-scheduled-runs';
import * as readiness from './0030-readiness';
import * as summaryShares from './0031-summary-shares';
import * as reportDeliveries from './0032-report-deliveries';
import * as onboarding from './0033-onboarding';
import * as clientAutomation from './0034-client-automation';
import * as adminSettings from './0036-admin-settings';
import * as billing from './0037-billing';
import * as serviceLevelMarks from './0038-service-level-marks';
import * as countedMarks from './0039-counted-marks';
import * as serviceLevelFillfactor from './0040-service-level-fillfactor';

/** Every migration, in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-messaging': messaging,
  '0003-presence': presence,
  '0004-agents': agents,
  '0005-hot-paths': hotPaths,
  '0007-send-attempts': sendAttempts,
  '0009-inbox': inbox,
  '0010-sql-routines': sqlRoutines,
  '0011-agent-hybrid': agentHybrid,
  '0012-understanding': understanding,
  '0013-automations': automations,
  '0014-workflows': workflows,
  '0015-n8n': n8n,
  '0016-events': events,
  '0017-hooks': hooks,
  '0018-api-keys': apiKeys,
  '0019-automation-triggers': automationTriggers,
  '0020-finish-send-local': finishSendLocal,
  '0021-hooks-retrying': hooksRetrying,
  '0022-hooks-retention': hooksRetention,
  '0023-content': content,
  '0024-contact': contact,
  '0025-contact-form-event': contactFormEvent,
  '0026-job-coalescing': jobCoalescing,
  '0027-insights': insights,
  '0028-satisfaction': satisfaction,
  '0029-scheduled-runs': scheduledRuns,
  '0030-readiness': readiness,
  '0031-summary-shares': summaryShares,
  '0032-report-deliveries': reportDeliveries,
  '0033-onboarding': onboarding,
  '0034-client-automation': clientAutomation,
  '0036-admin-settings': adminSettings,
  '0037-billing': billing,
  '0038-service-level-marks': serviceLevelMarks,
  '0039-counted-marks': countedMarks,
  '0040-service-level-fillfactor': serviceLevelFillfactor,
};
