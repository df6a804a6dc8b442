import { MessageCircleQuestion, Send } from 'lucide-react';
import { useState } from 'react';
import { tryAgentInput, type TryAgentResult } from '@common/api/agents';
import { KnowledgeSource } from '@/components/knowledge-source';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { useTryAgent } from '../api/try-agent';
import { engineLabel, formatPercent } from '../lib/agent-form';

const DECISION: Record<'answer' | 'handoff' | 'fallback', { label: string; variant: 'success' | 'warning' | 'secondary' }> = {
  answer: { label: 'Answers', variant: 'success' },
  handoff: { label: 'Hands off to a person', variant: 'warning' },
  fallback: { label: 'Asks to rephrase', variant: 'secondary' },
};

type ReceivedKind = NonNullable<TryAgentResult['received']>['kind'];
type AnswerSource = TryAgentResult['sources'][number];

const RECEIVED_HEADING: Record<ReceivedKind, string> = {
  answer: 'The customer would receive the answer',
  greeting: 'The customer would receive the greeting',
  handoff: 'The customer would receive the hand-off message',
  fallback: 'The customer would receive the fallback message',
};

/** A greeting is answered (with the greeting text) whatever the engine thought of it. */
function decisionOf(kind: ReceivedKind, decision: TryAgentResult['decision']): TryAgentResult['decision'] {
  return kind === 'greeting' || kind === 'answer' ? 'answer' : decision;
}

function SourceList({ sources }: { sources: readonly AnswerSource[] }) {
  if (sources.length === 0) return <p className="text-xs text-muted-foreground">No source in the knowledge base matched.</p>;
  return (
    <div className="grid min-w-0 gap-1">
      <h4 className="text-xs font-medium text-muted-foreground">Sources</h4>
      <ul className="grid min-w-0 gap-1">
        {sources.map((source) => (
          <li key={`${source.kind}-${source.id}`} className="flex min-w-0">
            <KnowledgeSource source={source} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the agent would do with the question: what the customer receives, and the answer it would not send, apart. */
export function TryAgentResultView({ result }: { result: TryAgentResult }) {
  // Older servers send only the engine's reply: that is what the customer receives when it answers.
  const received = result.received ?? { kind: 'answer' as const, text: result.reply };
  const rejected = result.rejected ?? null;
  return (
    <section aria-label="Agent reply" className="grid min-w-0 gap-3 rounded-lg border bg-muted/30 p-3 text-sm">
      <h4 className="text-xs font-medium text-muted-foreground">{RECEIVED_HEADING[received.kind]}</h4>
      <p className="break-words whitespace-pre-wrap" data-testid="agent-reply">
        {received.text}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {received.kind === 'greeting' ? null : <Badge variant="outline">Confidence {formatPercent(result.confidence)}</Badge>}
        <Badge variant={DECISION[decisionOf(received.kind, result.decision)].variant}>{DECISION[decisionOf(received.kind, result.decision)].label}</Badge>
      </div>
      {rejected ? (
        <div className="grid min-w-0 gap-1 rounded-md border border-dashed p-2" data-testid="rejected-candidate">
          <p className="break-words whitespace-pre-wrap text-muted-foreground">
            Would have answered “{rejected.reply}” at {formatPercent(rejected.confidence)}
          </p>
          <p className="text-xs text-muted-foreground">Not sent: {rejected.reason}.</p>
          <SourceList sources={rejected.sources} />
        </div>
      ) : received.kind === 'answer' ? (
        <SourceList sources={result.sources} />
      ) : null}
      <p className="text-xs text-muted-foreground">
        {engineLabel(result.engine)} · {Math.round(result.latencyMs)} ms
      </p>
    </section>
  );
}

/** "Try the agent": a question as a customer would ask it, answered with the saved configuration and live knowledge. */
export function TryAgentCard({ clientId }: { clientId: string }) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const ask = useTryAgent();
  const result = ask.data;

  const submit = () => {
    const parsed = tryAgentInput.safeParse({ message });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    ask.mutate(
      { clientId, message: parsed.data.message },
      { onError: (e) => setError(errorMessage(e, 'The agent could not answer. Try again.')) },
    );
  };

  return (
    <Card role="region" aria-labelledby="try-agent-title">
      <CardHeader>
        <CardTitle id="try-agent-title" className="flex items-center gap-2">
          <MessageCircleQuestion aria-hidden className="size-4 text-primary" />
          Try the agent
        </CardTitle>
        <CardDescription>Ask as a customer would. It answers with the saved settings and the live knowledge; nobody receives it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          noValidate
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id="try-agent-message" label="Question" error={error}>
            <Textarea
              {...fieldA11y('try-agent-message', error)}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  submit();
                }
              }}
              placeholder="When are you open on Saturdays?"
              rows={2}
            />
          </FormField>
          <Button type="submit" size="sm" className="justify-self-end" disabled={ask.isPending}>
            <Send aria-hidden />
            {ask.isPending ? 'Asking...' : 'Ask'}
          </Button>
        </form>
        {result && !ask.isPending ? <TryAgentResultView result={result} /> : null}
      </CardContent>
    </Card>
  );
}
