import { ClientsDirectory } from '@/features/clients/components/clients-directory';
import { useCurrentUser } from '@/lib/session';

/** /admin/clients, "All Clients": the same list as a table, for managing clients and channels. */
export default function AdminClientsRoute() {
  return <ClientsDirectory role={useCurrentUser().role} view="table" />;
}
