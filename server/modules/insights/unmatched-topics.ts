/**
 * The topics of the questions no knowledge-base entry matched (issue 16 §3, docs/insights.md
 * "Topics of unanswered questions"): per client, the period's questions are clustered by the AI
 * agent's text features (topic-clusters.ts); a cluster of at least MIN_TOPIC_QUESTIONS questions
 * is a topic, and the period before's questions count for the topic they would have joined, so a
 * topic has a trend. Questions of different clients are never grouped together: a topic is one
 * client's, so an entry can be written into that client's knowledge base.
 */
import { createHash } from 'node:crypto';
import { clusterVectors, nearestClusters, type TextFeatures } from './topic-clusters';

/** One AI reply to a question that matched no entry, with the customer's words (newest first within each period). */
export interface UnmatchedQuestion {
  replyId: string;
  clientId: string;
  /** In the period (else in the period before). */
  current: boolean;
  text: string;
  confidence: number | null;
  decision: string;
}

/**
 * The newest questions of each period that are grouped (the rest count in the "other questions"
 * group). Grouping compares every two of a client's questions: measured on 2 cores, about 0.2 s of
 * CPU for 500 a period, 0.6 s for 1,000 and 1.5 s for 2,000 (`npx tsx eval/topic-clusters.ts
 * --timing`, docs/insights.md), and the page reloads while conversations change.
 */
export const UNMATCHED_QUESTION_CAP = 500;
/** A cluster of at least this many of the period's questions is a topic; the rest stay in one "other questions" group. */
export const MIN_TOPIC_QUESTIONS = 2;
/** A topic with at least this many questions in the period is "missing from the knowledge base" (offered as a new FAQ entry). */
export const MISSING_MIN_QUESTIONS = 3;
/** At most this many distinct texts, most representative first, are kept per topic (the new entry's questions). */
export const MAX_TOPIC_TEXTS = 10;

export interface QuestionTopic {
  /** The reply to the newest question worded as the representative one. */
  replyId: string;
  clientId: string;
  count: number;
  previous: number;
  confidenceSum: number;
  confidenceCount: number;
  answered: number;
  handedOff: number;
  /** Distinct wordings, most representative first (the medoid, then by average similarity to the others). */
  texts: string[];
}

export interface UnmatchedTopics {
  /** Most questions first. */
  topics: QuestionTopic[];
  /** The period's questions in no topic, distinct wordings, newest first. */
  leftover: string[];
}

/** Texts that differ only in case, spacing and final punctuation are one wording. */
const wordingOf = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(/[\s?!.]+$/u, '');

export function unmatchedTopics(questions: readonly UnmatchedQuestion[], features: TextFeatures): UnmatchedTopics {
  return mergeClients([...byClient(questions)].map(([clientId, list]) => clientTopics(clientId, list, features)));
}

/** Clients whose topics are kept (the least recently used go first). */
const CACHED_CLIENTS = 64;

/**
 * unmatchedTopics with each client's result kept for the same questions (by reply id and
 * period): the AI Summary reloads its figures about once a second while conversations change, and
 * most changes leave a client's unanswered questions as they were.
 */
export class UnmatchedTopicFinder {
  readonly #cache = new Map<string, UnmatchedTopics>();

  constructor(private readonly features: TextFeatures) {}

  find(questions: readonly UnmatchedQuestion[]): UnmatchedTopics {
    return mergeClients(
      [...byClient(questions)].map(([clientId, list]) => {
        const hash = createHash('sha256');
        for (const q of list) hash.update(`${q.current ? '+' : '-'}${q.replyId}\n`);
        const key = `${clientId}:${hash.digest('base64')}`;
        const cached = this.#cache.get(key);
        const result = cached ?? clientTopics(clientId, list, this.features);
        this.#cache.delete(key);
        this.#cache.set(key, result);
        if (this.#cache.size > CACHED_CLIENTS) this.#cache.delete(this.#cache.keys().next().value!);
        return result;
      }),
    );
  }
}

function byClient(questions: readonly UnmatchedQuestion[]): Map<string, UnmatchedQuestion[]> {
  const clients = new Map<string, UnmatchedQuestion[]>();
  for (const question of questions) {
    const list = clients.get(question.clientId);
    if (list) list.push(question);
    else clients.set(question.clientId, [question]);
  }
  return clients;
}

function mergeClients(results: readonly UnmatchedTopics[]): UnmatchedTopics {
  const topics = results.flatMap((r) => r.topics).sort((a, b) => b.count - a.count || b.previous - a.previous || a.replyId.localeCompare(b.replyId));
  return { topics, leftover: results.flatMap((r) => r.leftover) };
}

function clientTopics(clientId: string, questions: readonly UnmatchedQuestion[], features: TextFeatures): UnmatchedTopics {
  // Distinct wordings, the period's first (newest first), then the period before's.
  const ordered = [...questions.filter((q) => q.current), ...questions.filter((q) => !q.current)];
  const wordingIndex = new Map<string, number>();
  const wordings: { text: string; current: number; previous: number; replyId: string }[] = [];
  const wordingOfQuestion = ordered.map((question) => {
    const key = wordingOf(question.text);
    let index = wordingIndex.get(key);
    if (index === undefined) {
      index = wordings.length;
      wordingIndex.set(key, index);
      wordings.push({ text: question.text.trim(), current: 0, previous: 0, replyId: question.replyId });
    }
    if (question.current) wordings[index]!.current++;
    else wordings[index]!.previous++;
    return index;
  });
  const currentWordings = wordings.flatMap((w, i) => (w.current > 0 ? [i] : []));
  if (currentWordings.length === 0) return { topics: [], leftover: [] };

  const { vectors, sameTopic } = features.embed(wordings.map((w) => w.text));
  const currentVectors = currentWordings.map((i) => vectors[i]!);
  const weights = currentWordings.map((i) => wordings[i]!.current);
  const clusters = clusterVectors(currentVectors, sameTopic, weights)
    .filter((cluster) => cluster.weight >= MIN_TOPIC_QUESTIONS)
    .map((cluster) => cluster.members.map((m) => currentWordings[m]!));

  // Which topic each wording belongs to: the period's by clustering, the period before's by the cluster it would have joined.
  const topicOfWording = new Int32Array(wordings.length).fill(-1);
  clusters.forEach((members, t) => members.forEach((i) => (topicOfWording[i] = t)));
  // A wording asked in both periods stays where the period's clustering put it (in a topic or not).
  const earlier = wordings.flatMap((w, i) => (w.current === 0 ? [i] : []));
  const joined = nearestClusters(
    vectors,
    clusters,
    earlier.map((i) => vectors[i]!),
    sameTopic,
    wordings.map((w) => w.current),
  );
  earlier.forEach((i, j) => (topicOfWording[i] = joined[j]!));

  const topics: QuestionTopic[] = clusters.map((members) => ({
    replyId: wordings[members[0]!]!.replyId,
    clientId,
    count: 0,
    previous: 0,
    confidenceSum: 0,
    confidenceCount: 0,
    answered: 0,
    handedOff: 0,
    texts: members.slice(0, MAX_TOPIC_TEXTS).map((i) => wordings[i]!.text),
  }));
  const leftover = new Set<string>();
  ordered.forEach((question, q) => {
    const wording = wordingOfQuestion[q]!;
    const topic = topics[topicOfWording[wording]!];
    if (!topic) {
      if (question.current) leftover.add(wordings[wording]!.text);
      return;
    }
    if (!question.current) {
      topic.previous++;
      return;
    }
    topic.count++;
    if (question.confidence !== null) {
      topic.confidenceSum += question.confidence;
      topic.confidenceCount++;
    }
    if (question.decision === 'answer') topic.answered++;
    if (question.decision === 'handoff') topic.handedOff++;
  });
  return { topics, leftover: [...leftover] };
}
