import { TemplatesAdmin } from '@/features/workflows/components/templates-admin';

/** /admin/templates and /templates (admins only, guarded by common/routes.ts). */
export default function AdminTemplatesRoute() {
  return <TemplatesAdmin />;
}
