import { WorkflowsAdmin } from '@/features/workflows/components/workflows-admin';

/** /admin/zapier-zaps and /zapier (admins only, guarded by common/routes.ts). */
export default function AdminZapierRoute() {
  return <WorkflowsAdmin kind="zapier" />;
}
