import { ReadinessScreen } from '@/features/readiness/components/readiness-screen';

/** /admin/production-status and /production-readiness (admins): the production readiness checklist. */
export default function ProductionStatusRoute() {
  return <ReadinessScreen />;
}
