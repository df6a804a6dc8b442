/**
 * The training job's trainer: the embedded engine's classifier, trained on the knowledge base's
 * example questions. The model is stored as JSON beside the knowledge it was trained on; its
 * held-out report (the calibration split) gives the accuracy shown on the knowledge screen.
 *
 * Training is seconds of CPU for a large knowledge base (plus, once per installation, converting
 * the word vectors), so it runs in a worker thread (`embedded-training.worker.ts`): the main
 * thread keeps accepting webhooks and answering while an agent trains. One worker per trainer,
 * started with the first training and kept (the word vectors load once); it trains one knowledge
 * base at a time, in the order asked, and does not keep the process alive while idle.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { KnowledgeTrainer } from './agents.service';
import type { KnowledgeEntry } from './engines/answer-engine';
import { trainEmbeddedModel } from './engines/embedded/model';

export interface TrainingResult {
  model: unknown;
  accuracy: number | null;
  /** How many held-out example questions the accuracy was measured on. */
  accuracyQuestions?: number | null;
}

/** Trains on this thread (the worker's side of the trainer). */
export function trainKnowledge(entries: readonly KnowledgeEntry[], onProgress: (fraction: number) => void): TrainingResult {
  onProgress(0.05);
  const usable = entries.filter((e) => e.questions.some((q) => q.trim()));
  if (usable.length === 0) return { model: null, accuracy: null };
  const model = trainEmbeddedModel(usable);
  onProgress(0.95);
  const measured = model.heldOut.questions > 0;
  return { model: model.toJSON(), accuracy: measured ? model.heldOut.accuracy : null, accuracyQuestions: measured ? model.heldOut.questions : null };
}

/** What the worker is started with. */
export interface TrainingWorkerData {
  /** PARLEY_WORD_VECTORS (server/config): whether the worker uses the packaged word vectors. */
  wordVectors: boolean;
}

export interface TrainingRequest {
  id: number;
  entries: readonly KnowledgeEntry[];
}

export type TrainingReply =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'done'; result: TrainingResult }
  | { id: number; type: 'failed'; message: string; stack?: string };

export interface EmbeddedTrainerOptions extends TrainingWorkerData {
  /** Limits of the worker's memory (Node's `resourceLimits`); a worker that exceeds them dies and its trainings fail. */
  resourceLimits?: ResourceLimits;
}

export interface EmbeddedTrainer extends KnowledgeTrainer {
  /**
   * Terminates the worker (the app's shutdown, after the job queue has stopped). A training still
   * running is left unsettled rather than failed: its job was not finished, so it is claimed again
   * when its lease runs out (or at the next start), as if the process had stopped.
   */
  close(): Promise<void>;
}

/**
 * The worker's code. Bundled (dist/server), it is the `embedded-training.worker.js` entry built
 * beside main.js (scripts/build-lib.mjs). From source (tsx, Vitest) this module is TypeScript, and
 * so is the worker: Vitest's transform does not reach worker threads, and on Node 20 loader hooks
 * (`--import tsx` in the worker's execArgv) do not apply to a worker's modules either, so the
 * worker starts from a line of CommonJS that installs tsx's require hook and requires the file.
 */
function workerScript(): { script: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./embedded-training.worker.js', import.meta.url), eval: false };
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const file = fileURLToPath(new URL('./embedded-training.worker.ts', import.meta.url));
  return { script: `require(${JSON.stringify(tsx)}).register();\nrequire(${JSON.stringify(file)});`, eval: true };
}

interface Pending {
  resolve: (result: TrainingResult) => void;
  reject: (error: Error) => void;
  onProgress: (fraction: number) => void;
}

export function createEmbeddedTrainer(options: EmbeddedTrainerOptions): EmbeddedTrainer {
  let worker: Worker | null = null;
  let closed = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  function start(): Worker {
    const { script, eval: isCode } = workerScript();
    const data: TrainingWorkerData = { wordVectors: options.wordVectors };
    // The CommonJS line must not inherit flags such as --input-type=module (execArgv: none then).
    const w = new Worker(script, { eval: isCode, execArgv: isCode ? [] : undefined, workerData: data, resourceLimits: options.resourceLimits });
    let crash: Error | null = null;
    w.on('message', (reply: TrainingReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      switch (reply.type) {
        case 'progress':
          p.onProgress(reply.fraction);
          return;
        case 'done':
          settled(reply.id);
          p.resolve(reply.result);
          return;
        case 'failed': {
          settled(reply.id);
          const error = new Error(reply.message);
          if (reply.stack) error.stack = reply.stack;
          p.reject(error);
          return;
        }
      }
    });
    w.on('error', (error) => {
      crash = error;
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      // Terminated by close(): the trainings stay unsettled (see close).
      if (closed) return;
      // A worker that died (out of memory, a crash) fails what it was given; the next training starts a new one.
      const error = new Error(`The training worker stopped (exit code ${code})${crash ? `: ${crash.message}` : ''}`, { cause: crash ?? undefined });
      const failed = [...pending.values()];
      pending.clear();
      for (const p of failed) p.reject(error);
    });
    return w;
  }

  /** A finished training; an idle worker must not keep the process alive. */
  function settled(id: number): void {
    pending.delete(id);
    if (pending.size === 0) worker?.unref();
  }

  return {
    train(entries, onProgress) {
      if (closed) return Promise.reject(new Error('The trainer is closed'));
      return new Promise<TrainingResult>((resolve, reject) => {
        worker ??= start();
        const id = nextId++;
        const request: TrainingRequest = { id, entries };
        // Throws (rejecting) on entries that cannot be copied, before anything waits for a reply.
        worker.postMessage(request);
        pending.set(id, { resolve, reject, onProgress });
        worker.ref();
      });
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
