import { Bot, Clock, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import type { AutomationSettingsView } from '@common/api/client-dashboard';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { useSetLeadQualification } from '../api/set-lead-qualification';
import { useUpdateAgentSettings } from '../api/update-agent-settings';
import { businessHoursText } from '../lib/dashboard';
import { BusinessHoursDialog } from './business-hours-dialog';

function SettingRow({ id, icon: Icon, title, description, control }: { id: string; icon: typeof Bot; title: string; description: ReactNode; control: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-xl border bg-card p-4">
      <div className="flex min-w-0 items-start gap-3">
        <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
        <div className="grid min-w-0 gap-1">
          <label htmlFor={id} className="font-medium">
            {title}
          </label>
          <div id={`${id}-description`} className="text-sm break-words text-muted-foreground">
            {description}
          </div>
        </div>
      </div>
      <div className="shrink-0">{control}</div>
    </div>
  );
}

/** Auto-response (the AI agent on/off), lead qualification and the agent's business hours (Configure). */
export function AutomationSettingsTab({ clientId, settings, paused }: { clientId: string; settings: AutomationSettingsView; paused: boolean }) {
  const agent = useUpdateAgentSettings();
  const leads = useSetLeadQualification();
  const saved = () => toast.success('Settings Saved');
  const failed = (error: unknown) => toast.error('Error', { description: errorMessage(error, 'The setting could not be saved. Please try again.') });

  return (
    <div className="grid gap-3">
      <SettingRow
        id="auto-response"
        icon={Bot}
        title="Auto-response"
        description={
          <>
            The AI agent answers your customers{settings.autoResponse ? '' : ' — it is off now, so your team answers every conversation'}.
            {paused && settings.autoResponse ? ' Your automation is paused: the agent does not answer until you resume it.' : ''}
          </>
        }
        control={
          <Switch
            id="auto-response"
            aria-describedby="auto-response-description"
            checked={settings.autoResponse}
            disabled={agent.isPending}
            onCheckedChange={(checked) => agent.mutate({ clientId, autoResponse: checked }, { onSuccess: saved, onError: failed })}
          />
        }
      />
      <SettingRow
        id="lead-qualification"
        icon={Sparkles}
        title="Lead qualification"
        description="A customer who shares an e-mail address or phone number, or asks to buy or book, makes the conversation a lead."
        control={
          <Switch
            id="lead-qualification"
            aria-describedby="lead-qualification-description"
            checked={settings.leadQualification}
            disabled={leads.isPending}
            onCheckedChange={(checked) => leads.mutate({ clientId, enabled: checked }, { onSuccess: saved, onError: failed })}
          />
        }
      />
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border bg-card p-4">
        <div className="flex min-w-0 items-start gap-3">
          <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
          <div className="grid min-w-0 gap-1">
            <h3 className="font-medium">Business hours</h3>
            <p className="text-sm break-words" data-testid="business-hours">
              {businessHoursText(settings.businessHours)}
            </p>
            <p className="text-sm text-muted-foreground">
              {settings.businessHours === null
                ? 'The agent answers at any hour.'
                : settings.outsideHours === 'away'
                  ? 'Outside these hours the agent sends your away message and leaves the conversation to your team.'
                  : 'The agent keeps answering outside these hours too.'}
            </p>
          </div>
        </div>
        <BusinessHoursDialog clientId={clientId} settings={settings} />
      </div>
    </div>
  );
}
