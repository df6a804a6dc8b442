/**
 * The embedded engine's text features, offered for grouping texts by topic (issue 16 §3: the
 * insights module clusters the customers' questions no knowledge-base entry matched;
 * docs/insights.md, "Topics of unanswered questions").
 *
 * A text becomes the two representations the engine itself matches questions with: TF-IDF over
 * word n-grams of stems and character n-grams (text.ts, vectorizer.ts) and the pooled pre-trained
 * word vectors (word-vectors.ts, DenseFeaturizer), each fitted on the texts of the call (idf, and
 * the mean word vector the dense part is centred on). Both read a text without its function words
 * ("do you", "is there", "can I"): what names a topic is the rest, and short questions that share
 * only that scaffolding ("Do you sell gift cards?", "Do you repair e-scooters?") would otherwise
 * look alike. Each part is unit length, weighted so that the dot product of two texts is
 * `(1 − vectorsShare) · cos(TF-IDF) + vectorsShare · cos(word vectors)`. `sameTopic` is the average
 * similarity from which texts belong together, tuned with the share on held-out splits of
 * BANKING77 and CLINC150 (`npx tsx eval/topic-clusters.ts`). Without word vectors
 * (PARLEY_WORD_VECTORS=off, or the package missing) the TF-IDF part is the whole vector, with its
 * own tuned threshold.
 */
import { extractFeatures, type TextFeatureOptions, tokenize } from './text';
import { Vectorizer, type VectorizerOptions } from './vectorizer';
import { DenseFeaturizer, defaultWordVectors, POOLS, QuantizedWordVectors, type WordVectors } from './word-vectors';

/** One text: sparse TF-IDF weights (indices into the call's vocabulary) and the dense word-vector part. */
export interface TextVector {
  indices: Int32Array;
  values: Float32Array;
  /** Empty without word vectors. */
  dense: Float32Array;
}

/** The texts of one call, comparable with each other only, and the similarity from which two belong to one topic. */
export interface TextEmbedding {
  vectors: TextVector[];
  sameTopic: number;
}

/** The n-grams of the TF-IDF part: those of the engine's classifier (model.ts DEFAULT_TRAIN_OPTIONS), with the usual idf. */
export const TOPIC_TFIDF: VectorizerOptions & TextFeatureOptions = {
  wordNgrams: [1, 2],
  charNgrams: [2, 5],
  wordBoundaries: false,
  minDf: 1,
  charWeight: 1,
  idfPower: 1,
};

/** Tuned on validation episodes only (eval/topic-clusters.ts; docs/insights.md has the sweep). */
export const TOPIC_SIMILARITY = {
  /** The word vectors' share of the similarity. */
  vectorsShare: 0.25,
  /** Average similarity from which texts are one topic, with the word vectors… */
  sameTopic: 0.22,
  /** …and with TF-IDF alone. */
  sameTopicWithoutVectors: 0.08,
} as const;

/**
 * Of the featurizer's pooled blocks (idf-weighted mean, max, min, 3-word windows), the first three:
 * the windows added nothing on the validation episodes and cost a quarter of the comparisons.
 */
const DENSE_BLOCKS = 3;

export interface TextEmbeddingOptions {
  /** The process's word vectors by default (null: none). */
  wordVectors?: () => WordVectors | null;
  /** For the evaluation's sweep: override the tuned constants. */
  vectorsShare?: number;
  sameTopic?: number;
}

export class EmbeddedTextFeatures {
  readonly #wordVectors: () => WordVectors | null;
  readonly #vectorsShare: number;
  readonly #sameTopic: number | undefined;

  constructor(options: TextEmbeddingOptions = {}) {
    this.#wordVectors = options.wordVectors ?? defaultWordVectors;
    this.#vectorsShare = options.vectorsShare ?? TOPIC_SIMILARITY.vectorsShare;
    this.#sameTopic = options.sameTopic;
  }

  embed(texts: readonly string[]): TextEmbedding {
    const topical = texts.map(withoutFunctionWords);
    const counts = topical.map((text) => extractFeatures(text, TOPIC_TFIDF));
    const vectorizer = Vectorizer.fitCounts(counts, TOPIC_TFIDF);
    const wordVectors = texts.length > 0 ? this.#wordVectors() : null;
    const share = wordVectors ? this.#vectorsShare : 0;
    const dense = wordVectors && share > 0 ? DenseFeaturizer.fit(wordVectors, [...topical, ...commonWords(wordVectors)], 1) : null;
    const sparseScale = Math.sqrt(1 - share);
    const denseScale = Math.sqrt(share);
    const vectors = topical.map((text, i): TextVector => {
      const { indices, values } = vectorizer.transformCounts(counts[i]!);
      for (let k = 0; k < values.length; k++) values[k]! *= sparseScale;
      const pooled = dense ? dense.transform(text).slice(0, (DENSE_BLOCKS * dense.dimension) / POOLS) : null;
      return { indices, values, dense: pooled ? unit(pooled, denseScale) : new Float32Array(0) };
    });
    const sameTopic = this.#sameTopic ?? (wordVectors ? TOPIC_SIMILARITY.sameTopic : TOPIC_SIMILARITY.sameTopicWithoutVectors);
    return { vectors, sameTopic };
  }
}

/**
 * The featurizer centres the word vectors on the mean of its texts' words and weighs words by
 * their idf among them. Over two or three questions that mean is the questions themselves (two
 * texts centred on their own mean point in opposite directions), so the fit also reads the
 * PRIOR_WORDS most frequent English words, one text each: they dominate the mean of a handful of
 * questions and wash out in hundreds. (The packaged vectors list their words most frequent first.)
 */
const PRIOR_WORDS = 100;
function commonWords(vectors: WordVectors): readonly string[] {
  return vectors instanceof QuantizedWordVectors ? vectors.words.slice(0, PRIOR_WORDS) : [];
}

/** `vector` scaled to length `length` (a zero vector stays zero). */
function unit(vector: Float32Array, length: number): Float32Array {
  let norm2 = 0;
  for (const x of vector) norm2 += x * x;
  if (norm2 === 0) return vector;
  const scale = length / Math.sqrt(norm2);
  for (let d = 0; d < vector.length; d++) vector[d]! *= scale;
  return vector;
}


/**
 * Words that carry no topic: articles, pronouns, auxiliaries and modals, prepositions,
 * conjunctions, question words, greetings. (The engine's own matching keeps them: there they tell
 * intents apart; grouping by topic does without, see docs/insights.md for the cost on the
 * intent datasets.)
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the i me my mine we us our you your yours it its this that these those he she they them their ' +
    'is are was were be been being am do does did done have has had can could would should will shall may might must ' +
    'to of in on at for from with by about as into onto than then so if or and but not no yes there here ' +
    'where what when which who whom whose why how hi hello hey please thanks thank ok okay just also any some get got'
  ).split(' '),
);

/** A text's words without its function words, or the text itself when nothing else is left. */
function withoutFunctionWords(text: string): string {
  const words = tokenize(text).filter((word) => !FUNCTION_WORDS.has(word));
  return words.length > 0 ? words.join(' ') : text;
}
