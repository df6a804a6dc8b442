import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_TEXTS, updateAgentInput, type AgentView } from '@common/api/agents';
import { agentFieldErrors, agentFormPath, formatPercent, thresholdLabel, toAgentBody, toAgentForm, type AgentForm } from './agent-form';

const CHANNEL_ON = '11111111-1111-4111-8111-111111111111';
const CHANNEL_OFF = '22222222-2222-4222-8222-222222222222';

const agent: AgentView = {
  clientId: '33333333-3333-4333-8333-333333333333',
  clientName: 'Acme',
  name: 'Acme Assistant',
  description: '',
  enabled: true,
  confidenceThreshold: 0.8,
  escalationEnabled: true,
  responseDelaySeconds: 2,
  channels: [
    { channelId: CHANNEL_ON, name: 'WhatsApp', kind: 'whatsapp', enabled: true },
    { channelId: CHANNEL_OFF, name: 'Website chat', kind: 'webchat', enabled: false },
  ],
  businessHours: null,
  outsideHours: 'answer',
  greetingText: DEFAULT_AGENT_TEXTS.greeting,
  handoffText: DEFAULT_AGENT_TEXTS.handoff,
  fallbackText: DEFAULT_AGENT_TEXTS.fallback,
  awayText: DEFAULT_AGENT_TEXTS.away,
  engine: 'embedded',
  llmMode: 'embedded-first',
  llmModel: null,
  llmBaseUrl: null,
  hasLlmApiKey: true,
  csatEnabled: true,
  csatQuestion: 'How did we do?',
  training: { status: 'idle', progress: 0, knowledgeVersion: 0, liveVersion: null, liveAt: null, error: null, metrics: null },
  stats: { replies: 0, escalations: 0, averageConfidence: null },
  updatedAt: null,
};

const form = (changes: Partial<AgentForm> = {}): AgentForm => ({ ...toAgentForm(agent, 'Europe/London'), ...changes });
const parse = (f: AgentForm) => updateAgentInput.safeParse(toAgentBody(f));
const errorsOf = (f: AgentForm) => {
  const result = parse(f);
  return result.success ? {} : agentFieldErrors(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
};

describe('the agent form', () => {
  it('starts from the agent: channels the agent skips are the disabled ones, the key field is empty', () => {
    const f = form();
    expect(f.disabledChannelIds).toEqual([CHANNEL_OFF]);
    expect(f.responseDelaySeconds).toBe('2');
    expect(f.alwaysOn).toBe(true);
    expect(f.timezone).toBe('Europe/London');
    expect(f.llmApiKey).toBe('');
  });

  it('sends a body the contract accepts, keeping the stored API key when the field is left empty', () => {
    const result = parse(form());
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty('llmApiKey');
    expect(result.data).toMatchObject({ businessHours: null, responseDelaySeconds: 2, disabledChannelIds: [CHANNEL_OFF], llmModel: null });
  });

  it('sends the rating request settings; an empty question gets the contract’s message', () => {
    expect(toAgentBody(form({ csatEnabled: false, csatQuestion: 'Did we help?' }))).toMatchObject({ csatEnabled: false, csatQuestion: 'Did we help?' });
    expect(errorsOf(form({ csatQuestion: '  ' }))).toMatchObject({ csatQuestion: 'Rating question is required' });
  });

  it('sends a new key for a hosted engine, null to remove it, and the base URL only for an OpenAI-compatible server', () => {
    expect(toAgentBody(form({ engine: 'openai', llmModel: ' gpt-4o-mini ', llmApiKey: 'sk-1', llmBaseUrl: 'http://x' }))).toMatchObject({
      engine: 'openai',
      llmModel: 'gpt-4o-mini',
      llmApiKey: 'sk-1',
      llmBaseUrl: null,
    });
    expect(toAgentBody(form({ removeApiKey: true, llmApiKey: 'ignored' }))['llmApiKey']).toBeNull();
    expect(toAgentBody(form({ engine: 'openai-compatible', llmBaseUrl: 'http://localhost:11434/v1' }))['llmBaseUrl']).toBe(
      'http://localhost:11434/v1',
    );
    expect(toAgentBody(form({ engine: 'embedded', llmApiKey: 'sk-1' }))).not.toHaveProperty('llmApiKey');
  });

  it('sends how the LLM is used: embedded first (the default) or for every question', () => {
    expect(form().llmMode).toBe('embedded-first');
    expect(parse(form({ engine: 'openai', llmApiKey: 'sk-1' })).data).toMatchObject({ engine: 'openai', llmMode: 'embedded-first' });
    expect(parse(form({ engine: 'openai', llmMode: 'llm' })).data).toMatchObject({ llmMode: 'llm' });
  });

  it('shows the contract messages on the response delay field', () => {
    expect(errorsOf(form({ responseDelaySeconds: '61' }))).toEqual({ responseDelaySeconds: 'Response delay must be between 0 and 60 seconds' });
    expect(errorsOf(form({ responseDelaySeconds: '-1' }))).toEqual({ responseDelaySeconds: 'Response delay must be between 0 and 60 seconds' });
    expect(errorsOf(form({ responseDelaySeconds: '1.5' }))).toEqual({ responseDelaySeconds: 'Response delay must be a whole number of seconds' });
    expect(errorsOf(form({ responseDelaySeconds: '' }))).toEqual({ responseDelaySeconds: 'Response delay must be a whole number of seconds' });
    expect(errorsOf(form({ responseDelaySeconds: 'two' }))).toEqual({ responseDelaySeconds: 'Response delay must be a whole number of seconds' });
    expect(parse(form({ responseDelaySeconds: ' 60 ' })).data?.responseDelaySeconds).toBe(60);
    expect(parse(form({ responseDelaySeconds: '0' })).data?.responseDelaySeconds).toBe(0);
  });

  it('puts business-hours errors on their row and the time zone field', () => {
    const errors = errorsOf(
      form({
        alwaysOn: false,
        timezone: 'Mars/Olympus',
        hours: [
          { day: 1, open: '09:00', close: '17:00' },
          { day: 2, open: '18:00', close: '08:00' },
          { day: 3, open: '09:00', close: '5pm' },
        ],
      }),
    );
    expect(errors).toEqual({
      timezone: 'Unknown time zone',
      'hours.1.close': 'Closing time must be after opening time',
      'hours.2.close': 'Use a time like 09:00',
    });
  });

  it('requires the texts and a name', () => {
    expect(errorsOf(form({ name: '  ', greetingText: '' }))).toEqual({ name: 'Name is required', greetingText: 'Greeting is required' });
  });

  it('maps server field paths to form fields', () => {
    expect(agentFormPath('businessHours.days.4.close')).toBe('hours.4.close');
    expect(agentFormPath('businessHours.timezone')).toBe('timezone');
    expect(agentFormPath('businessHours')).toBe('hours');
    expect(agentFormPath('disabledChannelIds.0')).toBe('disabledChannelIds');
    expect(agentFormPath('llmBaseUrl')).toBe('llmBaseUrl');
    expect(agentFormPath('')).toBe('root');
  });
});

describe('labels', () => {
  it('names thresholds and percentages', () => {
    expect(thresholdLabel(0.9)).toBe('High (0.9)');
    expect(thresholdLabel(0.8)).toBe('Medium (0.8)');
    expect(thresholdLabel(0.75)).toBe('0.75');
    expect(formatPercent(0.873)).toBe('87%');
    expect(formatPercent(null)).toBe('—');
  });
});
