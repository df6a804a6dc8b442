import { BookOpen, Bot, CheckCircle2, Circle, Plug, Rocket } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ClientDashboardView } from '@common/api/client-dashboard';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { useUpdateAgentSettings } from '../api/update-agent-settings';
import { goLiveSteps, type GoLiveStep } from '../lib/go-live';

const ICONS: Record<GoLiveStep['id'], typeof Plug> = { channel: Plug, knowledge: BookOpen, autoResponse: Bot };

function Step({ step, action }: { step: GoLiveStep; action: ReactNode }) {
  const Icon = ICONS[step.id];
  return (
    <li className="flex min-w-0 flex-wrap items-start justify-between gap-3 rounded-xl border bg-card p-4">
      <div className="flex min-w-0 items-start gap-3">
        {step.done ? <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-success" /> : <Circle aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />}
        <div className="grid min-w-0 gap-1">
          <p className="flex items-center gap-2 font-medium">
            <Icon aria-hidden className="size-4 shrink-0 text-primary" />
            <span className="sr-only">{step.done ? 'Done: ' : 'To do: '}</span>
            {step.title}
          </p>
          <p className="text-sm break-words text-muted-foreground">{step.detail}</p>
        </div>
      </div>
      {action ? <div className="shrink-0">{action}</div> : null}
    </li>
  );
}

/**
 * Going live (docs/client-dashboard.md): the three things between a business and an AI agent that
 * answers its customers — a channel, a live knowledge base, auto-response on — each marked done
 * from real data, with who does the rest. Shown until all three are done.
 */
export function GoLive({ view, role }: { view: ClientDashboardView; role: Role | null }) {
  const agent = useUpdateAgentSettings();
  const steps = goLiveSteps(view, role);
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  const clientId = view.client.id;

  const actionOf = (step: GoLiveStep): ReactNode => {
    if (step.done) return null;
    if (step.id === 'autoResponse') {
      return (
        <Button
          size="sm"
          disabled={!step.ready || agent.isPending}
          onClick={() =>
            agent.mutate(
              { clientId, autoResponse: true },
              {
                onSuccess: () => toast.success('Settings Saved'),
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The setting could not be saved. Please try again.') }),
              },
            )
          }
        >
          Turn On Auto-Response
        </Button>
      );
    }
    if (!step.link) return null;
    return (
      <Button asChild size="sm" variant="outline">
        <Link to={step.link.to}>{step.link.label}</Link>
      </Button>
    );
  };

  return (
    <Card role="region" aria-labelledby="go-live-title">
      <CardHeader>
        <CardTitle id="go-live-title" className="flex items-center gap-2">
          <Rocket aria-hidden className="size-4 text-primary" />
          Get your AI agent live
        </CardTitle>
        <CardDescription>
          {done} of {steps.length} steps done. Until then your team answers every conversation.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3">
          {steps.map((step) => (
            <Step key={step.id} step={step} action={actionOf(step)} />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
