import { WorkflowsAdmin } from '@/features/workflows/components/workflows-admin';

/** /admin/n8n-workflows and /n8n (admins only, guarded by common/routes.ts). */
export default function AdminN8nRoute() {
  return <WorkflowsAdmin kind="n8n" />;
}
