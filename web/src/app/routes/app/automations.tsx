import { AutomationsScreen } from '@/features/automations/components/automations-screen';
import { useCurrentUser } from '@/lib/session';

/** /automations (any signed-in user) and /admin/automations (admins): spec part 2 "Automations screen". */
export default function AutomationsRoute() {
  return <AutomationsScreen role={useCurrentUser().role} />;
}
