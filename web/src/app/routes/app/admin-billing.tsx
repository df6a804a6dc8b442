import { AdminBilling } from '@/features/billing/components/admin-billing';

/** /admin/billing (admins): every invoice, cash payments, clients' plans (docs/billing.md). */
export default function AdminBillingRoute() {
  return <AdminBilling />;
}
