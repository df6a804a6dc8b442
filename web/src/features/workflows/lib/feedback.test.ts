import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { assignErrorFeedback, checkRequired, deletedFeedback, errorFeedback, savedFeedback, templateAssignRefusal, toggledFeedback } from './feedback';
import { nextStatus } from './status';

describe('the required fields of a workflow, zap or template (spec part 2 §5)', () => {
  it("refuses a blank name or webhook URL with 'Error' / 'Please fill in all required fields'", () => {
    const toast = { title: 'Error', description: 'Please fill in all required fields' };
    expect(checkRequired({ name: '', webhookUrl: 'https://n8n.example.com/webhook/a' })).toEqual(toast);
    expect(checkRequired({ name: 'Lead intake', webhookUrl: '   ' })).toEqual(toast);
    expect(checkRequired({ name: '  ', webhookUrl: '' })).toEqual(toast);
  });

  it('lets a form with both through', () => {
    expect(checkRequired({ name: 'Lead intake', webhookUrl: 'https://n8n.example.com/webhook/a' })).toBeNull();
  });
});

describe('the status toggle (spec part 2 §4)', () => {
  it('turns active into paused and anything else into active', () => {
    expect(nextStatus('active')).toBe('paused');
    expect(nextStatus('paused')).toBe('active');
    expect(nextStatus('draft')).toBe('active');
  });

  it('says the new status, and for a linked workflow that n8n switched it too', () => {
    expect(toggledFeedback('Zap', 'paused', false)).toEqual({ title: 'Zap Paused' });
    expect(toggledFeedback('Workflow', 'active', true)).toEqual({ title: 'Workflow Active', description: 'The workflow is now active in n8n.' });
    expect(toggledFeedback('Workflow', 'paused', true).description).toBe('The workflow is now deactivated in n8n.');
  });

  it("shows n8n's refusal (502) word for word", () => {
    const message = 'n8n refused to activate the workflow: Workflow has no node to start the workflow';
    expect(errorFeedback(new ApiError('BAD_GATEWAY', message, 502), 'fallback')).toEqual({ title: 'Error', description: message });
    expect(errorFeedback(new ApiError('INTERNAL', 'stack trace', 500), 'The workflow could not be switched.').description).toBe('The workflow could not be switched.');
  });
});

describe('client assignment', () => {
  it("refuses a template's already-assigned client with 'Client Already Assigned' / '{client} is already assigned to this template'", () => {
    expect(templateAssignRefusal(['c1', 'c2'], { id: 'c2', name: 'Bakery Bliss' })).toEqual({
      title: 'Client Already Assigned',
      description: 'Bakery Bliss is already assigned to this template',
    });
    expect(templateAssignRefusal(['c1'], { id: 'c2', name: 'Bakery Bliss' })).toBeNull();
  });

  it("turns the server's 409 (another admin assigned it first) into the same toast", () => {
    const conflict = new ApiError('CONFLICT', 'Bakery Bliss is already assigned to this zap', 409, { details: { title: 'Client Already Assigned' } });
    expect(assignErrorFeedback(conflict)).toEqual({ title: 'Client Already Assigned', description: 'Bakery Bliss is already assigned to this zap' });
    expect(assignErrorFeedback(new ApiError('NOT_FOUND', 'Client not found', 404))).toEqual({ title: 'Error', description: 'Client not found' });
  });
});

describe('the spec toasts of part 2 §8', () => {
  it('names workflows, zaps and templates', () => {
    expect(savedFeedback('n8n', false, 'A').title).toBe('Workflow Created');
    expect(savedFeedback('zapier', true, 'A').title).toBe('Zap Updated');
    expect(deletedFeedback('n8n', 'A').title).toBe('Workflow Deleted');
    expect(deletedFeedback('zapier', 'A').title).toBe('Zap Deleted');
    expect(deletedFeedback('template', 'A').title).toBe('Template Deleted');
  });
});
