import { AgentsList } from '@/features/agents/components/agents-list';
import { useCurrentUser } from '@/lib/session';

/** /agents, "AI Agents" in the manager's menu (spec part 1 §2.10); admins may open it too and get a Configure link. */
export default function AgentsRoute() {
  return <AgentsList role={useCurrentUser().role} />;
}
