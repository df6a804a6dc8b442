/**
 * The readiness module (issue 16 §4, docs/readiness.md): the 24 production readiness items checked
 * against the live installation on the page's load and daily, the score, the drop alerts, the
 * test e-mail. Owns readiness_runs, readiness_items and readiness_test_emails; reads the rest of
 * Parley only through the ports app.ts fills in (`ReadinessSources`).
 */
export { ReadinessService, type ReadinessServiceDeps } from './readiness.service';
export { readinessRoutes } from './readiness.routes';
export { readinessDailyJob } from './readiness.job';
export { READINESS_CHECKS } from './readiness-checks';
export type { ReadinessSources } from './readiness-sources';
