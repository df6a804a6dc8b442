export { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded-engine';
export { asksForPerson } from './human-request';
export {
  DEFAULT_TRAIN_OPTIONS,
  EmbeddedModel,
  type EmbeddedModelJson,
  type EmbeddedPrediction,
  type EmbeddedTrainOptions,
  type EmbeddedTrainOverrides,
  loadEmbeddedModel,
  trainEmbeddedModel,
} from './model';
