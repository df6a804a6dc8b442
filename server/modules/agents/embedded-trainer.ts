/**
 * The training job's trainer: the embedded engine's classifier, trained on the knowledge base's
 * example questions. The model is stored as JSON beside the knowledge it was trained on; its
 * held-out report (the calibration split) gives the accuracy shown on the knowledge screen.
 */
import type { KnowledgeTrainer } from './agents.service';
import { trainEmbeddedModel } from './engines/embedded/model';

export const embeddedTrainer: KnowledgeTrainer = {
  train(entries, onProgress) {
    onProgress(0.05);
    const usable = entries.filter((e) => e.questions.some((q) => q.trim()));
    if (usable.length === 0) return Promise.resolve({ model: null, accuracy: null });
    const model = trainEmbeddedModel(usable);
    onProgress(0.95);
    return Promise.resolve({ model: model.toJSON(), accuracy: model.heldOut.questions > 0 ? model.heldOut.accuracy : null });
  },
};
