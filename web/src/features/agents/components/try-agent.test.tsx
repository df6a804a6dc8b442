import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TryAgentResult } from '@common/api/agents';
import { TryAgentResultView } from './try-agent';

const base: TryAgentResult = {
  reply: 'We open at 9.',
  confidence: 0.62,
  action: 'answer',
  decision: 'handoff',
  sources: [{ kind: 'faq', id: 'e1', title: 'When are you open?', link: null }],
  engine: 'embedded',
  latencyMs: 3,
};

const render = (result: TryAgentResult) => renderToStaticMarkup(<TryAgentResultView result={result} />);
const replyOf = (html: string) => /data-testid="agent-reply">([^<]*)</u.exec(html)?.[1];

describe('"Try the agent" shows what a customer would receive', () => {
  it('below the threshold: the hand-off text, and the rejected candidate apart with its confidence', () => {
    const html = render({
      ...base,
      received: { kind: 'handoff', text: 'A person will reply shortly.' },
      rejected: { reply: 'We open at 9.', confidence: 0.62, reason: 'its confidence is below the threshold (80%)', sources: base.sources },
    });
    expect(replyOf(html)).toBe('A person will reply shortly.');
    expect(html).toContain('Would have answered “We open at 9.” at 62%');
    expect(html).toContain('Not sent: its confidence is below the threshold (80%).');
    expect(html).toContain('Hands off to a person');
  });

  it('an answer: the answer itself, with its sources and no rejected candidate', () => {
    const html = render({ ...base, confidence: 0.9, decision: 'answer', received: { kind: 'answer', text: 'We open at 9.' }, rejected: null });
    expect(replyOf(html)).toBe('We open at 9.');
    expect(html).toContain('When are you open?');
    expect(html).not.toContain('Would have answered');
  });

  it('escalation off: the fallback text; an older server without `received`: its reply', () => {
    const fallback = render({ ...base, decision: 'fallback', received: { kind: 'fallback', text: 'Could you rephrase?' }, rejected: null });
    expect(replyOf(fallback)).toBe('Could you rephrase?');
    expect(fallback).toContain('Asks to rephrase');
    expect(replyOf(render({ ...base, decision: 'answer' }))).toBe('We open at 9.');
  });
});
