/**
 * The agent configuration form: built from an `agentView`, turned into the body of
 * `PUT /clients/:clientId/agent` and validated with the contract's `updateAgentInput`, whose
 * messages (and the server's `{ error: { fields } }`) land on the matching form fields.
 */
import { toNestErrors } from '@hookform/resolvers';
import type { Control, FieldErrors, Resolver } from 'react-hook-form';
import {
  CONFIDENCE_THRESHOLDS,
  ENGINE_LABELS,
  updateAgentInput,
  type AgentView,
  type EngineKindName,
  type LlmMode,
  type UpdateAgentInput,
} from '@common/api/agents';
import { toBusinessHours, toBusinessHoursForm, type HoursRow } from '@/lib/business-hours';

export interface AgentForm {
  name: string;
  description: string;
  enabled: boolean;
  confidenceThreshold: number;
  escalationEnabled: boolean;
  /** As typed; the schema says what is wrong with it. */
  responseDelaySeconds: string;
  /** Channels the agent stays out of. */
  disabledChannelIds: string[];
  alwaysOn: boolean;
  timezone: string;
  hours: HoursRow[];
  outsideHours: 'answer' | 'away';
  greetingText: string;
  handoffText: string;
  fallbackText: string;
  awayText: string;
  engine: EngineKindName;
  /** With an LLM engine: embedded first (the LLM only below the threshold) or the LLM for every question. */
  llmMode: LlmMode;
  llmModel: string;
  llmBaseUrl: string;
  /** A new key; empty keeps the stored one. Never filled from the server. */
  llmApiKey: string;
  /** Remove the stored key on save. */
  removeApiKey: boolean;
  /** Ask customers for a rating when a conversation is resolved. */
  csatEnabled: boolean;
  csatQuestion: string;
}

export function toAgentForm(agent: AgentView, fallbackTimeZone: string): AgentForm {
  const hours = toBusinessHoursForm(agent.businessHours, fallbackTimeZone);
  return {
    name: agent.name,
    description: agent.description,
    enabled: agent.enabled,
    confidenceThreshold: agent.confidenceThreshold,
    escalationEnabled: agent.escalationEnabled,
    responseDelaySeconds: String(agent.responseDelaySeconds),
    disabledChannelIds: agent.channels.filter((c) => !c.enabled).map((c) => c.channelId),
    alwaysOn: hours.alwaysOn,
    timezone: hours.timezone,
    hours: hours.hours,
    outsideHours: agent.outsideHours,
    greetingText: agent.greetingText,
    handoffText: agent.handoffText,
    fallbackText: agent.fallbackText,
    awayText: agent.awayText,
    engine: agent.engine,
    llmMode: agent.llmMode,
    llmModel: agent.llmModel ?? '',
    llmBaseUrl: agent.llmBaseUrl ?? '',
    llmApiKey: '',
    removeApiKey: false,
    csatEnabled: agent.csatEnabled,
    csatQuestion: agent.csatQuestion,
  };
}

/** Engines that call a hosted model and so take a model name and an API key. */
export const usesLlm = (engine: EngineKindName) => engine !== 'embedded';
/** Only an OpenAI-compatible server needs its address. */
export const usesBaseUrl = (engine: EngineKindName) => engine === 'openai-compatible';

/** "12" → 12; anything else goes to the schema as typed so it can say what is wrong. */
function delayValue(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '' || !/^-?\d+(\.\d+)?$/u.test(trimmed)) return trimmed;
  return Number(trimmed);
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The form's control: its values are AgentForm, its submitted output the validated request body. */
export type AgentFormControl = Control<AgentForm, unknown, UpdateAgentInput>;

/** The request body, before validation. */
export function toAgentBody(form: AgentForm): Record<string, unknown> {
  const llm = usesLlm(form.engine);
  const body: Record<string, unknown> = {
    name: form.name,
    description: form.description,
    enabled: form.enabled,
    confidenceThreshold: form.confidenceThreshold,
    escalationEnabled: form.escalationEnabled,
    responseDelaySeconds: delayValue(form.responseDelaySeconds),
    disabledChannelIds: form.disabledChannelIds,
    businessHours: toBusinessHours(form),
    outsideHours: form.outsideHours,
    greetingText: form.greetingText,
    handoffText: form.handoffText,
    fallbackText: form.fallbackText,
    awayText: form.awayText,
    engine: form.engine,
    llmMode: form.llmMode,
    llmModel: llm ? orNull(form.llmModel) : null,
    llmBaseUrl: usesBaseUrl(form.engine) ? orNull(form.llmBaseUrl) : null,
    csatEnabled: form.csatEnabled,
    csatQuestion: form.csatQuestion,
  };
  // Absent keeps the stored key; null removes it.
  if (form.removeApiKey) body['llmApiKey'] = null;
  else if (llm && form.llmApiKey.trim() !== '') body['llmApiKey'] = form.llmApiKey;
  return body;
}

/** The form field an API path (`businessHours.days.2.close`, `llmApiKey`…) belongs to. */
export function agentFormPath(apiPath: string): string {
  const parts = apiPath.split('.');
  const [head, second, index, leaf] = parts;
  if (head === 'businessHours') {
    if (second === 'timezone') return 'timezone';
    if (second === 'days' && index !== undefined && /^\d+$/u.test(index)) return leaf ? `hours.${index}.${leaf}` : `hours.${index}.close`;
    return 'hours';
  }
  if (head === 'disabledChannelIds') return 'disabledChannelIds';
  if (head === undefined || head === '') return 'root';
  return head;
}

/** Messages by form field, the first one per field (schema issues or the server's `fields`). */
export function agentFieldErrors(issues: Iterable<{ path: string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of issues) out[agentFormPath(path)] ??= message;
  return out;
}

export function flatToFieldErrors(flat: Record<string, string>): FieldErrors {
  return Object.fromEntries(Object.entries(flat).map(([name, message]) => [name, { type: 'validation', message }]));
}

/** react-hook-form resolver: the form is valid when its body passes `updateAgentInput`. */
export const agentFormResolver: Resolver<AgentForm, unknown, UpdateAgentInput> = (values, _context, options) => {
  const result = updateAgentInput.safeParse(toAgentBody(values));
  if (result.success) return { values: result.data, errors: {} };
  const flat = agentFieldErrors(result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
  return { values: {}, errors: toNestErrors(flatToFieldErrors(flat), options) };
};

export function thresholdLabel(value: number): string {
  const known = CONFIDENCE_THRESHOLDS.find((t) => t.value === value);
  return known ? `${known.label} (${value})` : String(value);
}

export const engineLabel = (engine: EngineKindName) => ENGINE_LABELS[engine];

/** For the agents table: how an LLM engine is used. */
export const llmModeShortLabel = (mode: LlmMode) => (mode === 'embedded-first' ? 'Embedded first' : 'LLM for every question');

/** 0.873 → "87%"; null → "—". */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${Math.round(value * 100)}%`;
}
