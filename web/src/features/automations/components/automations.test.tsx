import { QueryClient } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { AutomationMessageView, AutomationView, ExecutionView } from '@common/api/automations';
import { ApiError } from '@/lib/api-client';
import { automationKeys } from '../api/keys';
import { applyAutomationEvent } from '../api/use-live-automation';
import { AutomationRow } from './automation-list';
import { AutomationStatusBadge } from './automation-status';
import { runAutomationNow, runErrorText, toggleAutomation } from './automations-screen';
import { ExecutionHistoryList, NO_EXECUTIONS } from './execution-history';
import { MessageItem, MessagesCard, MessageTypeBadge, NO_MESSAGES } from './messages-card';

const AUTOMATION_ID = '00000000-0000-4000-8000-0000000000aa';

const automation = (over: Partial<AutomationView> = {}): AutomationView => ({
  id: AUTOMATION_ID,
  name: 'Lead follow-up',
  description: 'Answers new leads',
  workflow_id: 'wf-1',
  workflow_url: 'https://n8n.example.com/webhook/lead',
  status: 'active',
  config: {},
  client_id: null,
  created_by: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  ...over,
});

const execution = (over: Partial<ExecutionView> = {}): ExecutionView => ({
  id: '00000000-0000-4000-8000-000000000001',
  automation_id: AUTOMATION_ID,
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

const message = (over: Partial<AutomationMessageView> = {}): AutomationMessageView => ({
  id: '00000000-0000-4000-8000-000000000010',
  automation_id: AUTOMATION_ID,
  execution_id: null,
  message_type: 'info',
  step_name: null,
  content: 'Lead received',
  metadata: {},
  timestamp: '2026-01-01T10:00:00.000Z',
  ...over,
});

const row = (a: AutomationView) =>
  renderToStaticMarkup(<AutomationRow automation={a} selected={false} onSelect={() => {}} onRun={() => {}} onToggle={() => {}} />);
const buttonTag = (html: string, label: string) => new RegExp(`<button[^>]*aria-label="${label}"[^>]*>`, 'u').exec(html)?.[0] ?? '';

describe('an automation in the list', () => {
  it('disables Run while inactive, and only then', () => {
    expect(buttonTag(row(automation({ status: 'inactive' })), 'Run Lead follow-up')).toMatch(/ disabled=""/u);
    for (const status of ['active', 'paused', 'error'] as const) {
      expect(buttonTag(row(automation({ status })), 'Run Lead follow-up'), status).not.toMatch(/ disabled=""/u);
    }
  });

  it('offers Pause when active, Resume when paused, Activate otherwise; shows description and Updated date', () => {
    expect(row(automation({ status: 'active' }))).toContain('aria-label="Pause Lead follow-up"');
    expect(row(automation({ status: 'paused' }))).toContain('aria-label="Resume Lead follow-up"');
    expect(row(automation({ status: 'inactive' }))).toContain('aria-label="Activate Lead follow-up"');
    const html = row(automation());
    expect(html).toContain('Answers new leads');
    expect(html).toContain('Updated <time dateTime="2026-01-02T10:00:00.000Z">');
  });

  it('colours the status badge: active green, paused yellow, inactive gray, error red', () => {
    expect(renderToStaticMarkup(<AutomationStatusBadge status="active" />)).toContain('text-success');
    expect(renderToStaticMarkup(<AutomationStatusBadge status="paused" />)).toContain('text-warning');
    expect(renderToStaticMarkup(<AutomationStatusBadge status="inactive" />)).toContain('text-muted-foreground');
    expect(renderToStaticMarkup(<AutomationStatusBadge status="error" />)).toContain('text-destructive');
  });
});

describe('the toggle and Run', () => {
  it('sends the next status and toasts "Automation {status}"', () => {
    const notify = { success: vi.fn(), error: vi.fn() };
    const mutate = vi.fn((input: { id: string; status: 'active' | 'paused' }, callbacks: { onSuccess: (a: AutomationView) => void }) =>
      callbacks.onSuccess(automation({ status: input.status })),
    );
    toggleAutomation(automation({ status: 'active' }), mutate, notify);
    expect(mutate.mock.calls[0]?.[0]).toEqual({ id: AUTOMATION_ID, status: 'paused' });
    expect(notify.success).toHaveBeenCalledWith('Automation paused');
    toggleAutomation(automation({ status: 'inactive' }), mutate, notify);
    expect(notify.success).toHaveBeenLastCalledWith('Automation active');
  });

  it('a refused status change toasts Error / "Failed to update automation status"', () => {
    const notify = { success: vi.fn(), error: vi.fn() };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    toggleAutomation(automation(), (_input, callbacks) => callbacks.onError(new Error('boom')), notify);
    expect(notify.error).toHaveBeenCalledWith('Error', { description: 'Failed to update automation status' });
  });

  it('Run toasts "Automation triggered successfully", or the spec\'s error texts', () => {
    const notify = { success: vi.fn(), error: vi.fn() };
    const started = vi.fn(() => false);
    runAutomationNow(automation(), (_id, callbacks) => callbacks.onSuccess(execution()), started, notify);
    expect(started).toHaveBeenCalledOnce();
    expect(notify.success).toHaveBeenCalledWith('Automation triggered successfully');
    runAutomationNow(automation(), (_id, callbacks) => callbacks.onError(new ApiError('BAD_REQUEST', 'Workflow URL not configured', 400)), started, notify);
    expect(notify.error).toHaveBeenLastCalledWith('Error', { description: 'Workflow URL not configured' });
    expect(runErrorText(new ApiError('INTERNAL', 'x', 500))).toBe('Failed to trigger automation');
    // A run whose trigger already failed (told by its own toast) is not called a success.
    const quiet = { success: vi.fn(), error: vi.fn() };
    runAutomationNow(automation(), (_id, callbacks) => callbacks.onSuccess(execution()), () => true, quiet);
    expect(quiet.success).not.toHaveBeenCalled();
  });
});

describe('execution history', () => {
  it('says so when empty', () => {
    expect(renderToStaticMarkup(<ExecutionHistoryList executions={[]} />)).toContain(NO_EXECUTIONS);
    expect(NO_EXECUTIONS).toBe('No executions found. Run the automation to see execution history.');
  });

  it('shows status colour, duration or N/A, the external id, and the error in red', () => {
    const html = renderToStaticMarkup(
      <ExecutionHistoryList
        executions={[
          execution({ id: '00000000-0000-4000-8000-000000000002', status: 'error', duration_ms: 65_000, error_message: 'HTTP error! status: 500' }),
          execution({ status: 'running', execution_id: 'n8n-77' }),
        ]}
      />,
    );
    expect(html).toMatch(/data-status="error" class="[^"]*text-destructive/u);
    expect(html).toMatch(/data-status="running" class="[^"]*text-blue-600/u);
    expect(html).toContain('1m 5s');
    expect(html).toContain('N/A');
    expect(html).toContain('n8n-77');
    expect(html).toMatch(/<p class="[^"]*text-destructive[^"]*">HTTP error! status: 500<\/p>/u);
  });

  it('says which event started an execution, and nothing for a run started by hand', () => {
    const byEvent = renderToStaticMarkup(
      <ExecutionHistoryList
        executions={[execution({ started_how: 'event', trigger_event_id: '00000000-0000-4000-8000-0000000000ee', trigger_event_type: 'conversation.escalated' })]}
      />,
    );
    expect(byEvent.replace(/<[^>]+>/gu, '')).toMatch(/Started .+ by conversation\.escalated/u);
    expect(renderToStaticMarkup(<ExecutionHistoryList executions={[execution()]} />)).not.toContain(' by ');
  });
});

describe('Real-time Messages', () => {
  it('says so when empty, in a 400 px scroll area', () => {
    const html = renderToStaticMarkup(<MessagesCard messages={[]} />);
    expect(html).toContain('Real-time Messages');
    expect(html).toContain(NO_MESSAGES);
    expect(html).toContain('h-[400px]');
  });

  it('colours type badges: success green, warning yellow, error red, debug purple, others info blue', () => {
    const tone = (type: string) => /data-tone="(\w+)" class="([^"]*)"/u.exec(renderToStaticMarkup(<MessageTypeBadge type={type} />));
    expect(tone('success')?.[2]).toContain('text-success');
    expect(tone('warning')?.[2]).toContain('text-warning');
    expect(tone('error')?.[2]).toContain('text-destructive');
    expect(tone('debug')?.[2]).toContain('text-purple-700');
    expect(tone('step')?.[1]).toBe('info');
    expect(tone('step')?.[2]).toContain('text-blue-700');
  });

  it('shows "Unknown Step" without a step name, and "View metadata" only with metadata', () => {
    const bare = renderToStaticMarkup(<MessageItem message={message()} />);
    expect(bare).toContain('Unknown Step');
    expect(bare).not.toContain('View metadata');
    const rich = renderToStaticMarkup(<MessageItem message={message({ step_name: 'Fetch lead', metadata: { lead: 7 } })} />);
    expect(rich).toContain('Fetch lead');
    expect(rich).toContain('View metadata');
    expect(rich).toContain('&quot;lead&quot;: 7');
  });
});

describe('live events', () => {
  it('prepend a new message and update an execution row without a reload', () => {
    const queryClient = new QueryClient();
    const first = message({ id: '00000000-0000-4000-8000-000000000011', content: 'first' });
    queryClient.setQueryData(automationKeys.messages(AUTOMATION_ID), [first]);
    queryClient.setQueryData(automationKeys.executions(AUTOMATION_ID), [execution()]);

    const live = message({ id: '00000000-0000-4000-8000-000000000012', content: 'live', message_type: 'success' });
    applyAutomationEvent(queryClient, { topic: `automation:${AUTOMATION_ID}`, event: 'automation.message.created', data: live });
    expect(queryClient.getQueryData<AutomationMessageView[]>(automationKeys.messages(AUTOMATION_ID))?.map((m) => m.content)).toEqual(['live', 'first']);

    const done = applyAutomationEvent(queryClient, {
      topic: `automation:${AUTOMATION_ID}`,
      event: 'automation.execution.updated',
      data: execution({ status: 'success', duration_ms: 1500, execution_id: '42', finished_at: '2026-01-01T10:00:01.500Z' }),
    });
    expect(done?.status).toBe('success');
    expect(queryClient.getQueryData<ExecutionView[]>(automationKeys.executions(AUTOMATION_ID))).toEqual([done]);
  });

  it('ignore a malformed event', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(automationKeys.messages(AUTOMATION_ID), []);
    expect(applyAutomationEvent(queryClient, { topic: `automation:${AUTOMATION_ID}`, event: 'automation.message.created', data: { id: 1 } })).toBeNull();
    expect(queryClient.getQueryData(automationKeys.messages(AUTOMATION_ID))).toEqual([]);
  });
});
