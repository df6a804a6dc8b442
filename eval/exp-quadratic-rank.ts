// Experiment (not shipped): does a ranking with pairwise products of the entry features beat the linear conditional logit? Validation episodes only.
import { F, newtonMinimise } from '../server/modules/agents/engines/embedded/faq-scorer';
import { trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { toEntries } from './datasets';
import { entryTitle, faqContextFor, FAQ_KS, FAQ_OTHER_INTENT, FAQ_OUT_OF_SCOPE, loadFaqPools, sampleEpisode } from './faq';

interface Sample {
  x: Float64Array; // C × P
  C: number;
  label: number;
  pool: string;
  k: number;
}

const TOP = (process.env.TOP ?? '0,1,3,5,6,9,11,14').split(',').map(Number);
const products: [number, number][] = [];
for (let a = 0; a < TOP.length; a++) for (let b = a; b < TOP.length; b++) products.push([TOP[a]!, TOP[b]!]);
const QUAD = process.env.QUAD !== 'off';
const P = F + (QUAD ? products.length : 0);

function expand(features: Float64Array): { x: Float64Array; C: number } {
  const C = features.length / F;
  const x = new Float64Array(C * P);
  for (let c = 0; c < C; c++) {
    for (let j = 0; j < F; j++) x[c * P + j] = features[c * F + j]!;
    if (QUAD) products.forEach(([a, b], i) => (x[c * P + F + i] = features[c * F + a]! * features[c * F + b]!));
  }
  return { x, C };
}

function collect(seeds: number[]): Sample[] {
  const out: Sample[] = [];
  for (const pool of loadFaqPools(true)) {
    for (const seed of seeds)
      for (const k of FAQ_KS) {
        const ep = sampleEpisode(pool, seed, { intents: 15, k, otherIntent: FAQ_OTHER_INTENT, outOfScope: FAQ_OUT_OF_SCOPE });
        const model = trainEmbeddedModel(toEntries(ep.faq, entryTitle), undefined, faqContextFor(pool.id));
        const index = new Map(model.labels.map((l, i) => [l, i]));
        for (const p of ep.paraphrases) out.push({ ...expand(model.entryFeatures(p.text)!), label: index.get(p.label)!, pool: pool.id, k });
      }
  }
  return out;
}

function scoresOf(s: Sample, w: readonly number[]): Float64Array {
  const z = new Float64Array(s.C);
  for (let c = 0; c < s.C; c++) {
    let v = 0;
    for (let j = 0; j < P; j++) v += w[j]! * s.x[c * P + j]!;
    z[c] = v;
  }
  return z;
}

function fit(samples: Sample[], l2: number): number[] {
  return newtonMinimise(new Array<number>(P).fill(0), (w) => {
    let value = 0;
    const gradient = w.map((v) => l2 * v);
    const hessian = w.map((_, i) => w.map((__, j) => (i === j ? l2 : 0)));
    for (let j = 0; j < P; j++) value += 0.5 * l2 * w[j]! ** 2;
    const mean = new Float64Array(P);
    for (const s of samples) {
      const z = scoresOf(s, w);
      const max = Math.max(...z);
      let sum = 0;
      const p = z.map((v) => Math.exp(v - max));
      for (const v of p) sum += v;
      for (let c = 0; c < s.C; c++) p[c]! /= sum;
      value -= Math.log(Math.max(p[s.label]!, 1e-300));
      mean.fill(0);
      for (let c = 0; c < s.C; c++) for (let j = 0; j < P; j++) mean[j]! += p[c]! * s.x[c * P + j]!;
      for (let j = 0; j < P; j++) gradient[j]! += mean[j]! - s.x[s.label * P + j]!;
      for (let c = 0; c < s.C; c++) {
        if (p[c]! < 1e-6) continue;
        for (let i = 0; i < P; i++) {
          const di = p[c]! * (s.x[c * P + i]! - mean[i]!);
          if (di === 0) continue;
          const row = hessian[i]!;
          for (let j = i; j < P; j++) row[j]! += di * (s.x[c * P + j]! - mean[j]!);
        }
      }
    }
    for (let i = 0; i < P; i++) for (let j = 0; j < i; j++) hessian[i]![j] = hessian[j]![i]!;
    return { value, gradient, hessian };
  });
}

const fitSet = collect(Array.from({ length: Number(process.env.FIT ?? 25) }, (_, i) => 101 + i));
const checkSet = collect(Array.from({ length: 10 }, (_, i) => 1 + i));
console.error(`collected ${fitSet.length} / ${checkSet.length}; P = ${P}`);
for (const l2 of (process.env.L2 ?? '1,10').split(',').map(Number)) {
  const t0 = performance.now();
  const w = fit(fitSet, l2);
  const rows: string[] = [];
  for (const pool of ['banking', 'clinc'])
    for (const k of FAQ_KS) {
      const group = checkSet.filter((s) => s.pool === pool && s.k === k);
      const right = group.filter((s) => {
        const z = scoresOf(s, w);
        return z.indexOf(Math.max(...z)) === s.label;
      }).length;
      rows.push(`${pool} k=${k} ${((100 * right) / group.length).toFixed(1)}`);
    }
  console.log(`quad=${QUAD} l2=${l2} (${((performance.now() - t0) / 1000).toFixed(0)} s): ${rows.join(' | ')}`);
}
