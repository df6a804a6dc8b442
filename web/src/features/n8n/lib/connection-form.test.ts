import { describe, expect, it } from 'vitest';
import { apiKeyProblem, connectionForm, toSaveConnectionInput } from './connection-form';

describe('the n8n connection form', () => {
  it('needs the base URL, and the API key while none is saved', () => {
    const result = connectionForm.safeParse({ baseUrl: ' ', apiKey: '' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['baseUrl', 'Enter the n8n base URL']]);
    expect(apiKeyProblem('  ', false)).toBe('Enter the n8n API key');
    expect(apiKeyProblem('n8n_api_x', false)).toBeNull();
    expect(apiKeyProblem('', true)).toBeNull();
  });

  it('keeps the saved key when the field is left empty: the key is not sent at all', () => {
    const form = connectionForm.parse({ baseUrl: 'http://n8n.internal:5678 ', apiKey: '  ' });
    expect(toSaveConnectionInput(form)).toEqual({ baseUrl: 'http://n8n.internal:5678' });
    expect(toSaveConnectionInput({ baseUrl: 'http://n8n.internal:5678', apiKey: 'n8n_api_new' })).toEqual({ baseUrl: 'http://n8n.internal:5678', apiKey: 'n8n_api_new' });
  });
});
