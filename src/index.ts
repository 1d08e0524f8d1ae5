// The public entry point of modelcheck: models and library users import only from here.
export {
  action,
  invariant,
  actionProperty,
  settledInvariant,
  liveness,
  eventually,
  always,
  eventuallyAlways,
  leadsTo,
  weakFairness,
  strongFairness,
  symmetry,
  defineModel,
  defineSingleModel,
  isModel,
  stepLabel,
  DEADLOCK,
} from './engine/model.ts';
export { actorOf } from './report/steps.ts';
export type {
  Action,
  Invariant,
  ActionProperty,
  SettledInvariant,
  LivenessProperty,
  Temporal,
  Coverage,
  Reproduction,
  Fairness,
  FairnessOptions,
  Property,
  PropertyKind,
  StepEvent,
  PropertyOptions,
  Variant,
  VariantMatrix,
  Model,
  ModelParameter,
  ParameterValues,
  Symmetry,
} from './engine/model.ts';
export { check, selectVariants, type CheckOptions } from './engine/check.ts';
export { configureModel } from './engine/parameters.ts';
export { checkVariant, type SearchOptions, type Progress } from './engine/search/bfs.ts';
export type { CheckpointOptions } from './engine/search/checkpoint.ts';
export { checkVariantParallel, expanderInThisThread, splitRefusal } from './engine/search/parallel/parallelSearch.ts';
export { serveExpander, portLink, type MessagePortLike } from './engine/search/parallel/port.ts';
export type { ExpanderLink } from './engine/search/parallel/protocol.ts';
export { simulateVariant, type SimulationOptions } from './engine/search/simulate.ts';
export { ModelError, type ModelErrorCode } from './engine/errors.ts';
export { Fingerprinter } from './engine/values/fingerprint.ts';
export type { TraceStep } from './engine/search/trace.ts';
export type {
  Verdict,
  Stats,
  ActionCoverage,
  Violation,
  PropertyResult,
  PropertyStatus,
  VariantResult,
  ModelResult,
  SimulationFacts,
} from './engine/result.ts';
export * as k8s from './k8s/index.ts';
export { FlatRecord, type FlatRecordOf } from './engine/values/flatRecord.ts';
export * as packed from './engine/values/packed/index.ts';
export type { PackedRecordOf } from './engine/values/packed/index.ts';
export { followLog, type FollowResult, type FollowOptions, type FollowedStep } from './engine/search/followLog.ts';
