import { describe, expect, it } from 'vitest';
import type { AutomationMessageView, ExecutionView } from '@common/api/automations';
import { toCreateInput, toUpdateInput, triggersOf } from './automation-form';
import { formatDuration, isTriggerFailure, messageTone, nextStatus, prependMessage, statusToast, stepName, upsertExecution } from './automations';

const execution = (over: Partial<ExecutionView> = {}): ExecutionView => ({
  id: '00000000-0000-4000-8000-000000000001',
  automation_id: '00000000-0000-4000-8000-0000000000aa',
  status: 'running',
  started_at: '2026-01-01T10:00:00.000Z',
  finished_at: null,
  duration_ms: null,
  error_message: null,
  execution_id: null,
  started_how: 'manual',
  started_by: null,
  trigger_event_id: null,
  trigger_event_type: null,
  ...over,
});

const message = (id: string): AutomationMessageView => ({
  id,
  automation_id: '00000000-0000-4000-8000-0000000000aa',
  execution_id: null,
  message_type: 'info',
  step_name: null,
  content: `message ${id}`,
  metadata: {},
  timestamp: '2026-01-01T10:00:00.000Z',
});

describe('the pause/resume toggle', () => {
  it('pauses an active automation and activates any other, toasting "Automation {status}"', () => {
    expect(nextStatus('active')).toBe('paused');
    expect(nextStatus('paused')).toBe('active');
    expect(nextStatus('inactive')).toBe('active');
    expect(nextStatus('error')).toBe('active');
    expect(statusToast('paused')).toBe('Automation paused');
    expect(statusToast('active')).toBe('Automation active');
  });
});

describe('durations', () => {
  it('shows hours, minutes and seconds, or N/A while unfinished', () => {
    expect(formatDuration(null)).toBe('N/A');
    expect(formatDuration(undefined)).toBe('N/A');
    expect(formatDuration(250)).toBe('<1s');
    expect(formatDuration(5_400)).toBe('5s');
    expect(formatDuration(65_000)).toBe('1m 5s');
    expect(formatDuration(3_723_000)).toBe('1h 2m 3s');
    expect(formatDuration(3_600_000)).toBe('1h 0m 0s');
  });
});

describe('message types and steps', () => {
  it('colours success, warning, error and debug, and treats anything else as info', () => {
    expect(messageTone('success')).toBe('success');
    expect(messageTone('WARNING')).toBe('warning');
    expect(messageTone('error')).toBe('error');
    expect(messageTone('debug')).toBe('debug');
    expect(messageTone('info')).toBe('info');
    expect(messageTone('progress')).toBe('info');
  });

  it('names a step without a name "Unknown Step"', () => {
    expect(stepName({ step_name: null })).toBe('Unknown Step');
    expect(stepName({ step_name: '  ' })).toBe('Unknown Step');
    expect(stepName({ step_name: 'Fetch lead' })).toBe('Fetch lead');
  });
});

describe('live changes', () => {
  it('puts a new message on top, once, and keeps 100 at most', () => {
    const list = Array.from({ length: 100 }, (_, i) => message(`m${i}`));
    const next = prependMessage(list, message('new'));
    expect(next[0]?.id).toBe('new');
    expect(next).toHaveLength(100);
    expect(prependMessage(next, message('new')).filter((m) => m.id === 'new')).toHaveLength(1);
  });

  it('replaces a known execution in place and adds a new one newest first', () => {
    const older = execution({ id: '00000000-0000-4000-8000-000000000001', started_at: '2026-01-01T09:00:00.000Z' });
    const newer = execution({ id: '00000000-0000-4000-8000-000000000002', started_at: '2026-01-01T10:00:00.000Z' });
    const list = upsertExecution([older], newer);
    expect(list.map((e) => e.id)).toEqual([newer.id, older.id]);
    const done = upsertExecution(list, { ...older, status: 'success', duration_ms: 1200 });
    expect(done.map((e) => [e.id, e.status])).toEqual([
      [newer.id, 'running'],
      [older.id, 'success'],
    ]);
  });

  it('tells a failed trigger (no answer from the workflow) from a workflow that reported an error', () => {
    expect(isTriggerFailure(execution({ status: 'error', error_message: 'HTTP error! status: 500' }))).toBe(true);
    expect(isTriggerFailure(execution({ status: 'error', execution_id: '42' }))).toBe(false);
    expect(isTriggerFailure(execution({ status: 'success' }))).toBe(false);
  });
});

describe('the automation form’s triggers', () => {
  const values = {
    name: 'N',
    description: '',
    workflow_id: 'w',
    workflow_url: 'https://x.example/w',
    status: 'active' as const,
    client_id: 'none',
    triggers: [{ event: 'conversation.escalated' as const, filters: { channel: ['whatsapp' as const] } }],
  };

  it('creates with the triggers in the config, and without a config when there are none', () => {
    expect(toCreateInput(values)).toMatchObject({ config: { triggers: values.triggers } });
    expect(toCreateInput({ ...values, triggers: [] })).not.toHaveProperty('config');
  });

  it('on edit, keeps the config’s other keys and replaces its triggers', () => {
    expect(toUpdateInput(values, { crm: 7, triggers: [{ event: 'lead.qualified' }] })).toMatchObject({ config: { crm: 7, triggers: values.triggers } });
    expect(toUpdateInput({ ...values, triggers: [] }, { crm: 7 })).not.toHaveProperty('config');
    expect(toUpdateInput({ ...values, triggers: [] }, { crm: 7, triggers: [{ event: 'lead.qualified' }] })).toMatchObject({ config: { crm: 7, triggers: [] } });
  });

  it('reads the stored triggers, and none from a config without valid ones', () => {
    expect(triggersOf({ triggers: [{ event: 'lead.qualified' }] })).toEqual([{ event: 'lead.qualified' }]);
    expect(triggersOf({ triggers: ['new_lead'] })).toEqual([]);
    expect(triggersOf(undefined)).toEqual([]);
  });
});
