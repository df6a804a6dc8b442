import { describe, expect, it } from 'vitest';
import { newKnowledgeEntryHref, newKnowledgeEntryOf } from '@/lib/knowledge-entry-link';
import { entryFormResolver, toEntryBody, toNewEntryForm } from './knowledge-form';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';

describe('a new FAQ entry opened from a link (the AI Summary’s "New FAQ entry")', () => {
  it('fills the new entry’s example questions from the link, one row each, and leaves the answer to write', () => {
    const href = newKnowledgeEntryHref(CLIENT, ['Where can I park my car?', 'Do you have a car park?']);
    const questions = newKnowledgeEntryOf(new URLSearchParams(href.slice(href.indexOf('?') + 1)));
    expect(questions).toEqual(['Where can I park my car?', 'Do you have a car park?']);
    expect(toNewEntryForm(questions!)).toEqual({ questions: [{ text: 'Where can I park my car?' }, { text: 'Do you have a car park?' }], answer: '', link: '' });
    expect(toNewEntryForm([])).toEqual({ questions: [{ text: '' }], answer: '', link: '' });
  });

  it('cannot be saved until the answer is written', async () => {
    const form = toNewEntryForm(['Where can I park my car?']);
    const options = { fields: {}, shouldUseNativeValidation: false };
    const empty = await entryFormResolver(form, undefined, options);
    expect(empty.errors).toMatchObject({ answer: { message: 'Answer is required' } });
    const answered = await entryFormResolver({ ...form, answer: 'Free parking behind the shop.' }, undefined, options);
    expect(answered.errors).toEqual({});
    expect(answered.values).toEqual({ ...toEntryBody({ ...form, answer: 'Free parking behind the shop.' }), link: null });
  });
});
