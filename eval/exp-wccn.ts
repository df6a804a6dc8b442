// Experiment (not shipped): within-class covariance normalisation of word vectors learned on one dataset, measured on the other's FAQ episodes.
import { loadPackagedWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { tokenize } from '../server/modules/agents/engines/embedded/text';
import { loadBanking77, loadClinc150, type Example } from './datasets';
import { loadFaqPools, sampleEpisode, FAQ_OTHER_INTENT, FAQ_OUT_OF_SCOPE } from './faq';

const wv = loadPackagedWordVectors()!;
const D = wv.dimension;

function idfOf(texts: readonly string[]): (w: string) => number {
  const df = new Map<string, number>();
  for (const t of texts) for (const w of new Set(tokenize(t))) df.set(w, (df.get(w) ?? 0) + 1);
  return (w) => Math.log((1 + texts.length) / (1 + (df.get(w) ?? 0))) + 1;
}

function meanVector(texts: readonly string[]): Float64Array {
  const m = new Float64Array(D);
  let n = 0;
  for (const t of texts) for (const w of tokenize(t)) if (wv.addTo(w, m, 1)) n++;
  for (let d = 0; d < D; d++) m[d]! /= n || 1;
  return m;
}

function pooled(text: string, idf: (w: string) => number, mu: Float64Array, W: Float64Array | null): Float64Array {
  const out = new Float64Array(D);
  const v = new Float64Array(D);
  for (const w of tokenize(text)) {
    v.fill(0);
    if (!wv.addTo(w, v, 1)) continue;
    const s = idf(w);
    for (let d = 0; d < D; d++) out[d]! += s * (v[d]! - mu[d]!);
  }
  const r = W ? mul(W, out) : out;
  return normalise(r);
}

function normalise(x: Float64Array): Float64Array {
  let n = 0;
  for (const v of x) n += v * v;
  n = Math.sqrt(n) || 1;
  return x.map((v) => v / n);
}

function mul(W: Float64Array, x: Float64Array): Float64Array {
  const out = new Float64Array(D);
  for (let i = 0; i < D; i++) {
    let s = 0;
    for (let j = 0; j < D; j++) s += W[i * D + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}

/** Symmetric eigen decomposition (cyclic Jacobi). */
function eigen(A0: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const A = Float64Array.from(A0);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q]!;
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (A[q * n + q]! - A[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p]!;
          const akq = A[k * n + q]!;
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k]!;
          const aqk = A[q * n + k]!;
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!;
          const vkq = V[k * n + q]!;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = A[i * n + i]!;
  return { values, vectors: V };
}

/** (S_w + α·mean eigen·I)^(-power) from the within-class scatter of one dataset's pooled questions. */
function wccn(examples: readonly Example[], alpha: number, power: number): Float64Array {
  const texts = examples.map((e) => e.text);
  const idf = idfOf(texts);
  const mu = meanVector(texts);
  const byLabel = new Map<string, Float64Array[]>();
  for (const e of examples) {
    const list = byLabel.get(e.label) ?? [];
    list.push(pooled(e.text, idf, mu, null));
    byLabel.set(e.label, list);
  }
  const S = new Float64Array(D * D);
  let n = 0;
  for (const list of byLabel.values()) {
    const c = new Float64Array(D);
    for (const x of list) for (let d = 0; d < D; d++) c[d]! += x[d]! / list.length;
    for (const x of list) {
      for (let i = 0; i < D; i++) {
        const a = x[i]! - c[i]!;
        for (let j = 0; j < D; j++) S[i * D + j]! += a * (x[j]! - c[j]!);
      }
      n++;
    }
  }
  for (let i = 0; i < D * D; i++) S[i]! /= n;
  const { values, vectors } = eigen(S, D);
  const meanEig = values.reduce((a, v) => a + v, 0) / D;
  const W = new Float64Array(D * D);
  for (let k = 0; k < D; k++) {
    const f = (values[k]! + alpha * meanEig) ** -power;
    for (let i = 0; i < D; i++) for (let j = 0; j < D; j++) W[i * D + j]! += f * vectors[i * D + k]! * vectors[j * D + k]!;
  }
  return W;
}

function evaluate(poolId: string, W: Float64Array | null, k: number, seeds: number): { proto: number; nearest: number } {
  const pool = loadFaqPools(true).find((p) => p.id === poolId)!;
  let proto = 0;
  let nearest = 0;
  let total = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const ep = sampleEpisode(pool, seed, { intents: 15, k, otherIntent: FAQ_OTHER_INTENT, outOfScope: FAQ_OUT_OF_SCOPE });
    const texts = ep.faq.map((e) => e.text);
    const idf = idfOf(texts);
    const mu = meanVector(texts);
    const faqVecs = ep.faq.map((e) => ({ label: e.label, v: pooled(e.text, idf, mu, W) }));
    const protos = ep.intents.map((label) => {
      const c = new Float64Array(D);
      for (const f of faqVecs) if (f.label === label) for (let d = 0; d < D; d++) c[d]! += f.v[d]!;
      return { label, v: normalise(c) };
    });
    for (const p of ep.paraphrases) {
      const q = pooled(p.text, idf, mu, W);
      const dot = (a: Float64Array) => a.reduce((s, v, d) => s + v * q[d]!, 0);
      let best = '';
      let bs = -Infinity;
      for (const c of protos) {
        const s = dot(c.v);
        if (s > bs) [bs, best] = [s, c.label];
      }
      if (best === p.label) proto++;
      bs = -Infinity;
      for (const f of faqVecs) {
        const s = dot(f.v);
        if (s > bs) [bs, best] = [s, f.label];
      }
      if (best === p.label) nearest++;
      total++;
    }
  }
  return { proto: (100 * proto) / total, nearest: (100 * nearest) / total };
}

const banking = loadBanking77();
const clinc = loadClinc150();
const seeds = Number(process.env.SEEDS ?? 10);
for (const [target, source] of [
  ['banking', [...clinc.train, ...clinc.val]],
  ['clinc', banking.train],
] as const) {
  for (const k of [1, 4]) {
    const base = evaluate(target, null, k, seeds);
    console.log(`${target} k=${k} raw: proto ${base.proto.toFixed(1)} nearest ${base.nearest.toFixed(1)}`);
    for (const alpha of [0.03, 0.1, 0.3, 1]) {
      for (const power of [0.5, 0.75, 1]) {
        const W = wccn(source, alpha, power);
        const r = evaluate(target, W, k, seeds);
        console.log(`${target} k=${k} wccn α=${alpha} p=${power}: proto ${r.proto.toFixed(1)} nearest ${r.nearest.toFixed(1)}`);
      }
    }
  }
}
