/**
 * The embedded trainer's worker thread (started by `createEmbeddedTrainer`, embedded-trainer.ts):
 * trains one knowledge base per message, in the order received, and replies with its progress and
 * the model or the error. Bundled as its own entry point (scripts/build-lib.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type TrainingReply, type TrainingRequest, type TrainingWorkerData, trainKnowledge } from './embedded-trainer';
import { configureWordVectors } from './engines/embedded/word-vectors';

const port = parentPort;
if (!port) throw new Error('embedded-training.worker runs in a worker thread');
configureWordVectors({ enabled: (workerData as TrainingWorkerData).wordVectors });

port.on('message', ({ id, entries }: TrainingRequest) => {
  const reply = (message: TrainingReply) => port.postMessage(message);
  try {
    const result = trainKnowledge(entries, (fraction) => reply({ id, type: 'progress', fraction }));
    reply({ id, type: 'done', result });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply({ id, type: 'failed', message: e.message, stack: e.stack });
  }
});
