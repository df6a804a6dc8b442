import { BookPlus, BookX, Flame, MessageCircleQuestion, TriangleAlert, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { SummaryTopic } from '@common/api/summary';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCount, formatRate } from '@/lib/figures';
import { newKnowledgeEntryHref } from '@/lib/knowledge-entry-link';
import { useSession } from '@/lib/session';
import { formatTopicTrend, TOPIC_TYPE_LABELS } from '../lib/summary-figures';

export const NO_QUESTIONS = 'No customer questions in this period.';

const TYPE_BADGE: Record<SummaryTopic['type'], { variant: 'warning' | 'secondary' | 'destructive'; icon: LucideIcon }> = {
  trending: { variant: 'warning', icon: Flame },
  common: { variant: 'secondary', icon: MessageCircleQuestion },
  escalation: { variant: 'destructive', icon: TriangleAlert },
};

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * A new FAQ entry for a topic missing from the knowledge base, starting from the customers' own
 * questions (its most representative first): Admin Settings → AI Agents with the entry's form open
 * for the topic's client, nothing saved yet. Null for other topics.
 */
export function newEntryHrefOf(topic: SummaryTopic): string | null {
  if (!topic.missingFromKnowledgeBase || topic.suggestedQuestion === null || topic.clientId === null) return null;
  return newKnowledgeEntryHref(topic.clientId, [topic.suggestedQuestion, ...topic.variants]);
}

function TopicCard({ topic, knowledgeBaseHref, canAddEntries }: { topic: SummaryTopic; knowledgeBaseHref: string | null; canAddEntries: boolean }) {
  const titleId = useId();
  const newEntryHref = canAddEntries ? newEntryHrefOf(topic) : null;
  const type = TYPE_BADGE[topic.type];
  const TypeIcon = type.icon;
  return (
    <li>
      <Card role="region" aria-labelledby={titleId} className="min-w-0 gap-3 py-4">
        <CardContent className="grid min-w-0 gap-3 px-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="min-w-0 font-semibold break-words">
              {topic.title}
            </h3>
            <Badge variant={type.variant}>
              <TypeIcon aria-hidden />
              {TOPIC_TYPE_LABELS[topic.type]}
            </Badge>
            {topic.missingFromKnowledgeBase ? (
              <Badge variant="outline" className="border-destructive/40 text-destructive">
                <BookX aria-hidden />
                Missing from the knowledge base
              </Badge>
            ) : null}
          </div>
          <dl className="grid grid-cols-3 gap-3 text-sm sm:flex sm:gap-8">
            <Figure label="Questions" value={formatCount(topic.count)} />
            <Figure label="Trend" value={formatTopicTrend(topic.trend)} />
            <Figure label="Confidence" value={formatRate(topic.confidence)} />
          </dl>
          <p className="text-sm text-muted-foreground">{topic.summary}</p>
          {topic.examples.length > 0 ? (
            <div className="grid gap-1">
              <p className="text-xs font-medium text-muted-foreground">In the customers&apos; own words</p>
              <ul className="grid gap-1">
                {topic.examples.map((example, index) => (
                  <li key={index} className="text-sm break-words">
                    <q className="italic">{example}</q>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {newEntryHref ? (
            <div>
              <Button asChild size="sm" variant="outline">
                <Link to={newEntryHref} aria-label={`New FAQ entry: ${topic.title}`}>
                  <BookPlus aria-hidden />
                  New FAQ entry
                </Link>
              </Button>
            </div>
          ) : topic.missingFromKnowledgeBase && knowledgeBaseHref ? (
            <p className="text-sm">
              Add an entry for these questions on the AI agent&apos;s knowledge base page.{' '}
              <Link to={knowledgeBaseHref} className="font-medium text-primary underline-offset-4 hover:underline">
                Open AI Agents
              </Link>
            </p>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

/**
 * AI Insights: what customers asked in the period, one card per knowledge-base entry the agent
 * matched and per group of alike questions it could match to none (most questions first), and the
 * rest of those. `knowledgeBaseHref` is null on a read-only page (a share link); there, and for
 * anyone but administrators (who alone write knowledge bases), no "New FAQ entry" button —
 * `canAddEntries` overrides the signed-in user's role (tests).
 */
export function AiInsightsTab({
  topics,
  knowledgeBaseHref,
  canAddEntries,
}: {
  topics: readonly SummaryTopic[];
  knowledgeBaseHref: string | null;
  canAddEntries?: boolean;
}) {
  const session = useSession();
  const admin = canAddEntries ?? (session.status === 'ready' && session.user?.role === 'admin');
  if (topics.length === 0) return <EmptyState icon={MessageCircleQuestion} title={NO_QUESTIONS} />;
  return (
    <ul aria-label="Topics customers asked about" className="grid min-w-0 gap-4 lg:grid-cols-2">
      {topics.map((topic) => (
        <TopicCard key={topic.id} topic={topic} knowledgeBaseHref={knowledgeBaseHref} canAddEntries={knowledgeBaseHref !== null && admin} />
      ))}
    </ul>
  );
}
