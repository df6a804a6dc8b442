import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedTrainer, type EmbeddedTrainer } from './embedded-trainer';
import type { KnowledgeEntry } from './engines/answer-engine';
import { loadEmbeddedModel } from './engines/embedded/model';
import { SHOP_FAQ } from './engines/embedded/faq-fixture';

/** `entries` × `perEntry` generated questions: each entry's topic words mixed with common filler words. */
function generatedKnowledge(entries: number, perEntry: number): KnowledgeEntry[] {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'dun', 'pe', 'shi', 'gor', 'al', 'ber'];
  const word = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
  const filler = ['how', 'do', 'i', 'can', 'you', 'my', 'the', 'what', 'is', 'where', 'when', 'order', 'account', 'help', 'please'];
  const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
  return Array.from({ length: entries }, (_, e) => {
    const topic = Array.from({ length: 4 }, word);
    const questions = Array.from({ length: perEntry }, () =>
      Array.from({ length: 6 + Math.floor(random() * 5) }, () => (random() < 0.5 ? pick(topic) : pick(filler))).join(' '),
    );
    return { id: `entry-${e}`, questions, answer: `Answer ${e}`, link: null };
  });
}

describe('embedded trainer (worker thread)', () => {
  let trainer: EmbeddedTrainer | undefined;
  afterEach(async () => {
    await trainer?.close();
    trainer = undefined;
  });

  it('trains a model the engine loads', async () => {
    trainer = createEmbeddedTrainer({ wordVectors: false });
    const progress: number[] = [];
    const result = await trainer.train(SHOP_FAQ, (fraction) => progress.push(fraction));
    expect(progress).toEqual([0.05, 0.95]);
    expect(result.model).not.toBeNull();
    const model = loadEmbeddedModel(result.model, { wordVectors: null });
    expect(model.predict('When are you open?')?.entryId).toBe('hours');
  });

  it('keeps the main thread responsive while a large knowledge base trains', async () => {
    trainer = createEmbeddedTrainer({ wordVectors: false });
    const knowledge = generatedKnowledge(150, 20);
    // Ticks of the main thread from the moment the training has started (its first progress) to its end.
    const ticks: number[] = [];
    let started = 0;
    const timer = setInterval(() => {
      if (started) ticks.push(performance.now());
    }, 5);
    try {
      await trainer.train(knowledge, () => {
        started ||= performance.now();
      });
    } finally {
      clearInterval(timer);
    }
    const duration = performance.now() - started;
    let longestGap = 0;
    for (let i = 1; i < ticks.length; i++) longestGap = Math.max(longestGap, ticks[i]! - ticks[i - 1]!);
    // On the main thread there would be no tick at all until the training ended.
    expect(duration).toBeGreaterThan(300);
    expect(ticks.length).toBeGreaterThanOrEqual(Math.min(20, duration / 50));
    expect(longestGap).toBeLessThan(duration / 2);
  });

  it('rejects when the training fails, and trains again afterwards', async () => {
    trainer = createEmbeddedTrainer({ wordVectors: false });
    const broken = [{ id: 'broken', questions: 42, answer: 'x', link: null }] as unknown as KnowledgeEntry[];
    await expect(trainer.train(broken, () => undefined)).rejects.toThrow(/questions/u);
    await expect(trainer.train(SHOP_FAQ, () => undefined)).resolves.toMatchObject({ model: expect.anything() as unknown });
  });

  it('rejects the trainings of a worker that dies, and starts a new worker for the next', async () => {
    // Too little memory for the worker: it dies (ERR_WORKER_OUT_OF_MEMORY), this process does not.
    trainer = createEmbeddedTrainer({ wordVectors: false, resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 } });
    await expect(trainer.train(SHOP_FAQ, () => undefined)).rejects.toThrow(/training worker stopped/u);
    await expect(trainer.train(SHOP_FAQ, () => undefined)).rejects.toThrow(/training worker stopped/u);
  });

  it('queues trainings one at a time and refuses new ones once closed', async () => {
    trainer = createEmbeddedTrainer({ wordVectors: false });
    const [a, b] = await Promise.all([trainer.train(SHOP_FAQ, () => undefined), trainer.train(SHOP_FAQ.slice(0, 3), () => undefined)]);
    expect(a.model).not.toBeNull();
    expect(b.model).not.toBeNull();
    await trainer.close();
    await expect(trainer.train(SHOP_FAQ, () => undefined)).rejects.toThrow(/closed/u);
  });

  it('does not keep the process alive once idle', async () => {
    // A process that trains once and never closes the trainer exits by itself.
    const script = `
      import { createEmbeddedTrainer } from ${JSON.stringify(path.join(import.meta.dirname, 'embedded-trainer.ts'))};
      const { model } = await createEmbeddedTrainer({ wordVectors: false }).train([{ id: 'a', questions: ['hello there'], answer: 'a', link: null }], () => {});
      console.log(model ? 'trained' : 'no model');
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('trained');
  });
});
