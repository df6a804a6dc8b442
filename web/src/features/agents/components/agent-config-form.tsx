import { Bot, Clock, Cpu, MessageSquareText, Radio, Save, SlidersHorizontal, Star, Trash2, Undo2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  CONFIDENCE_THRESHOLDS,
  ENGINE_LABELS,
  engineKind,
  LLM_MODE_LABELS,
  llmMode,
  MAX_RESPONSE_DELAY_SECONDS,
  type AgentView,
  type UpdateAgentInput,
} from '@common/api/agents';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { BusinessHoursFields } from '@/components/business-hours-fields';
import { errorMessage, isApiError } from '@/lib/api-client';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { SURVEY_QUESTION_MAX } from '@common/messaging/satisfaction';
import { formatDateTime } from '@/lib/format';
import { useUpdateAgent } from '../api/update-agent';
import { agentFieldErrors, agentFormResolver, toAgentForm, usesBaseUrl, usesLlm, type AgentForm, type AgentFormControl } from '../lib/agent-form';
import { browserTimeZone } from '@/lib/business-hours';

const MODEL_PLACEHOLDER: Record<AgentForm['engine'], string> = {
  embedded: '',
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
  'openai-compatible': 'llama3.1',
};

const TEXTS = [
  { name: 'greetingText', label: 'Greeting', hint: 'The first message of a new conversation.' },
  { name: 'handoffText', label: 'Hand-off text', hint: 'Sent when the agent passes the conversation to a person.' },
  { name: 'fallbackText', label: 'Fallback text', hint: 'Sent when the agent is unsure and escalation is off.' },
  { name: 'awayText', label: 'Away text', hint: 'Sent outside business hours when the agent leaves it to the team.' },
] as const;

function Section({ icon: Icon, title, description, children }: { icon: LucideIcon; title: string; description: string; children: ReactNode }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon aria-hidden className="size-4 text-primary" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

function SwitchRow({
  control,
  name,
  id,
  label,
  description,
}: {
  control: AgentFormControl;
  name: 'enabled' | 'escalationEnabled' | 'csatEnabled';
  id: string;
  label: string;
  description: string;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            aria-describedby={`${id}-description`}
            checked={field.value}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
        )}
      />
    </div>
  );
}

/** The agent's whole configuration for one client (admins), saved in one PUT. */
export function AgentConfigForm({ agent }: { agent: AgentView }) {
  const update = useUpdateAgent();
  const form = useForm<AgentForm, unknown, UpdateAgentInput>({
    resolver: agentFormResolver,
    defaultValues: toAgentForm(agent, browserTimeZone()),
  });
  const { errors, isDirty } = form.formState;
  const engine = useWatch({ control: form.control, name: 'engine' });
  const llmModeValue = useWatch({ control: form.control, name: 'llmMode' });
  const removeApiKey = useWatch({ control: form.control, name: 'removeApiKey' });
  const disabledChannelIds = useWatch({ control: form.control, name: 'disabledChannelIds' });

  const onSubmit = form.handleSubmit((changes) => {
    update.mutate(
      { clientId: agent.clientId, changes },
      {
        onSuccess: (saved) => {
          form.reset(toAgentForm(saved, form.getValues('timezone')));
          toast.success('Agent Saved', { description: `${saved.name} for ${saved.clientName}` });
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            const fields = agentFieldErrors(Object.entries(error.fields).map(([path, message]) => ({ path, message })));
            for (const [name, message] of Object.entries(fields)) {
              form.setError(name as FieldPath<AgentForm>, { type: 'server', message });
            }
          }
          toast.error('Error', { description: errorMessage(error, 'The agent could not be saved.') });
        },
      },
    );
  });

  const text = (name: 'name' | 'description' | 'llmModel' | 'llmBaseUrl', label: string, description?: string, placeholder?: string) => (
    <FormField id={`agent-${name}`} label={label} error={errors[name]?.message} description={description}>
      <Input
        {...fieldA11y(`agent-${name}`, errors[name]?.message, description !== undefined)}
        autoComplete="off"
        placeholder={placeholder}
        {...form.register(name)}
      />
    </FormField>
  );

  const toggleChannel = (channelId: string, on: boolean) => {
    const next = on ? disabledChannelIds.filter((id) => id !== channelId) : [...disabledChannelIds, channelId];
    form.setValue('disabledChannelIds', next, { shouldDirty: true });
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-6" aria-label="Agent configuration">
      <Section icon={Bot} title="Agent" description="What the agent is called and whether it answers at all.">
        {text('name', 'Name')}
        <FormField id="agent-description" label="Description" error={errors.description?.message}>
          <Textarea {...fieldA11y('agent-description', errors.description?.message)} rows={2} {...form.register('description')} />
        </FormField>
        <SwitchRow
          control={form.control}
          name="enabled"
          id="agent-enabled"
          label="Agent enabled"
          description="When off, every customer message waits for a person."
        />
      </Section>

      <Section icon={SlidersHorizontal} title="Answering" description="How sure the agent must be, and what it does when it is not.">
        <FormField
          id="agent-threshold"
          label="Confidence threshold"
          error={errors.confidenceThreshold?.message}
          description="The agent answers only when it is at least this sure."
        >
          <Controller
            control={form.control}
            name="confidenceThreshold"
            render={({ field }) => (
              <Select value={String(field.value)} onValueChange={(value) => field.onChange(Number(value))}>
                <SelectTrigger id="agent-threshold" className="w-full sm:w-56" aria-describedby="agent-threshold-description">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {CONFIDENCE_THRESHOLDS.map((t) => (
                    <SelectItem key={t.value} value={String(t.value)}>
                      {t.label} ({t.value})
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </FormField>
        <SwitchRow
          control={form.control}
          name="escalationEnabled"
          id="agent-escalation"
          label="Escalation"
          description="Below the threshold, hand the conversation to a person (with the hand-off text). Off: ask the customer to rephrase."
        />
        <FormField
          id="agent-delay"
          label="Response delay (seconds)"
          error={errors.responseDelaySeconds?.message}
          description={`Wait before replying, so answers do not feel instant: 0 to ${MAX_RESPONSE_DELAY_SECONDS} seconds.`}
        >
          <Input
            {...fieldA11y('agent-delay', errors.responseDelaySeconds?.message, true)}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_RESPONSE_DELAY_SECONDS}
            step={1}
            className="w-32"
            {...form.register('responseDelaySeconds')}
          />
        </FormField>
      </Section>

      <Section icon={Radio} title="Channels" description="The agent answers on the channels switched on here.">
        {agent.channels.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {agent.clientName} has no channels yet. Connect one on{' '}
            <Link to="/admin/clients" className="text-primary hover:underline">
              All Clients
            </Link>
            .
          </p>
        ) : (
          <ul className="grid gap-3">
            {agent.channels.map((channel) => {
              const id = `agent-channel-${channel.channelId}`;
              return (
                <li key={channel.channelId} className="flex items-center justify-between gap-4">
                  <Label htmlFor={id} className="grid gap-0.5">
                    <span>{channel.name}</span>
                    {channel.name === CHANNEL_KIND_LABEL[channel.kind] ? null : (
                      <span className="text-xs font-normal text-muted-foreground">{CHANNEL_KIND_LABEL[channel.kind]}</span>
                    )}
                  </Label>
                  <Switch
                    id={id}
                    checked={!disabledChannelIds.includes(channel.channelId)}
                    onCheckedChange={(on) => toggleChannel(channel.channelId, on)}
                  />
                </li>
              );
            })}
          </ul>
        )}
        {errors.disabledChannelIds?.message ? <p className="text-sm text-destructive">{errors.disabledChannelIds.message}</p> : null}
      </Section>

      <Section icon={Clock} title="Business hours" description="When the agent is on duty.">
        <BusinessHoursFields idPrefix="agent" control={form.control} register={form.register} errors={errors} />
      </Section>

      <Section icon={MessageSquareText} title="Messages" description="What the agent says in these moments.">
        {TEXTS.map(({ name, label, hint }) => (
          <FormField key={name} id={`agent-${name}`} label={label} error={errors[name]?.message} description={hint}>
            <Textarea {...fieldA11y(`agent-${name}`, errors[name]?.message, true)} rows={2} {...form.register(name)} />
          </FormField>
        ))}
      </Section>

      <Section icon={Star} title="Customer satisfaction" description="Ask customers to rate the help they got when a conversation is resolved.">
        <SwitchRow
          control={form.control}
          name="csatEnabled"
          id="agent-csat"
          label="Ask for a rating"
          description="After a person resolves a conversation: stars in the website chat, a reply with a number from 1 to 5 on WhatsApp, Messenger and Instagram (within 24 hours of the customer's last message), a survey field on the API channel. The answer does not reopen the conversation."
        />
        <FormField id="agent-csatQuestion" label="Rating question" error={errors.csatQuestion?.message} description="WhatsApp, Messenger and Instagram add how to answer with a number.">
          <Input {...fieldA11y('agent-csatQuestion', errors.csatQuestion?.message, true)} maxLength={SURVEY_QUESTION_MAX} {...form.register('csatQuestion')} />
        </FormField>
      </Section>

      <Section icon={Cpu} title="Engine" description="What writes the answers.">
        <FormField id="agent-engine" label="Engine" error={errors.engine?.message}>
          <Controller
            control={form.control}
            name="engine"
            render={({ field }) => (
              <Select value={field.value} onValueChange={(value) => field.onChange(engineKind.parse(value))}>
                <SelectTrigger id="agent-engine" className="w-full sm:w-72">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {engineKind.options.map((kind) => (
                    <SelectItem key={kind} value={kind}>
                      {ENGINE_LABELS[kind]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </FormField>
        {usesLlm(engine) ? (
          <>
            <FormField
              id="agent-llmMode"
              label="When to call the LLM"
              error={errors.llmMode?.message}
              description={
                llmModeValue === 'embedded-first'
                  ? 'The embedded engine answers the questions it is sure about (at the confidence threshold) at no cost; only the others go to the LLM. Conversation summaries stay extractive.'
                  : 'Every question goes to the LLM, which also writes the conversation summaries.'
              }
            >
              <Controller
                control={form.control}
                name="llmMode"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={(value) => field.onChange(llmMode.parse(value))}>
                    <SelectTrigger id="agent-llmMode" className="w-full sm:w-80" aria-describedby="agent-llmMode-description">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {llmMode.options.map((mode) => (
                        <SelectItem key={mode} value={mode}>
                          {LLM_MODE_LABELS[mode]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            {text('llmModel', 'Model', undefined, MODEL_PLACEHOLDER[engine])}
            {usesBaseUrl(engine) ? text('llmBaseUrl', 'Base URL', 'The server’s OpenAI-compatible API, e.g. http://localhost:11434/v1.', 'https://') : null}
            <FormField
              id="agent-llmApiKey"
              label="API key"
              error={errors.llmApiKey?.message}
              action={
                agent.hasLlmApiKey ? (
                  <Badge variant={removeApiKey ? 'destructive' : 'success'}>{removeApiKey ? 'Removed on save' : 'Stored'}</Badge>
                ) : (
                  <Badge variant="secondary">None stored</Badge>
                )
              }
              description={
                agent.hasLlmApiKey
                  ? 'A key is stored (never shown). Type a new one to replace it, or leave the field empty to keep it.'
                  : 'Stored encrypted; never shown again.'
              }
            >
              <PasswordInput
                {...fieldA11y('agent-llmApiKey', errors.llmApiKey?.message, true)}
                autoComplete="new-password"
                disabled={removeApiKey}
                {...form.register('llmApiKey')}
              />
            </FormField>
            {agent.hasLlmApiKey ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="justify-self-start"
                onClick={() => {
                  form.setValue('removeApiKey', !removeApiKey, { shouldDirty: true });
                  form.setValue('llmApiKey', '');
                }}
              >
                {removeApiKey ? <Undo2 aria-hidden /> : <Trash2 aria-hidden />}
                {removeApiKey ? 'Keep the stored key' : 'Remove the stored key'}
              </Button>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-muted-foreground">
            Runs inside Parley with no outside service: it matches customers’ questions to the knowledge base’s example
            questions and articles.
          </p>
        )}
      </Section>

      <div className="sticky bottom-0 z-10 flex flex-wrap items-center justify-end gap-3 border-t bg-background/95 py-3 backdrop-blur">
        <span className="mr-auto text-xs text-muted-foreground">
          {agent.updatedAt ? `Last saved ${formatDateTime(agent.updatedAt)}` : 'Default settings: not saved yet'}
        </span>
        {isDirty ? (
          <Button type="button" variant="outline" onClick={() => form.reset()} disabled={update.isPending}>
            Discard changes
          </Button>
        ) : null}
        <Button type="submit" disabled={update.isPending}>
          <Save aria-hidden />
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
