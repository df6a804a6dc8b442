import { ClientsDirectory } from '@/features/clients/components/clients-directory';
import { useCurrentUser } from '@/lib/session';

/** /clients, "Legacy Clients" in the admin's menu: spec part 1 §2.14 as cards. */
export default function ClientsRoute() {
  return <ClientsDirectory role={useCurrentUser().role} view="cards" />;
}
