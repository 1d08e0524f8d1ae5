// Kubernetes API-server and controller-runtime semantics, reusable by any model. Nothing in
// this folder knows about clusterctl or any particular controller.
// Names, one per concept: `KubeObject` is the type of an object (and the record constructor that
// takes immutable fields, for projections); `object()` builds one from plain arrays and maps.
// Requests have one verb each, the same on the server (`get`, `create`, `update`, `mergePatch`,
// `delete`, taking an ApiServer) and in a controller step (`r.get`, `r.create`, ...).
export {
  KubeObject,
  kubeObject as object,
  objectKey,
  keyOf,
  isDeleting,
  matchesLabels,
  hasFinalizer,
  finalizersOf,
  withFinalizer,
  withoutFinalizer,
  addsFinalizer,
  OwnerRef,
  ownerReference,
  ownerReferencesOf,
  controllerOf,
  type OwnerReferenceInit,
  type OwnerReferenceView,
  type OwnerRefProps,
  Condition,
  condition,
  conditionStatus,
  hasSameState,
  type ConditionInit,
  type ConditionProps,
  type ObjectKey,
  type FieldValue,
  type KubeObjectProps,
} from './object.ts';
export {
  ApiServer,
  WatchEvent,
  emptyServer,
  get,
  create,
  mergePatch,
  jsonPatchAddAnnotations,
  update,
  del as delete,
  NO_NEW_FINALIZERS,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type MergePatch,
  type WatchEventType,
  type Preconditions,
  type KindRules,
  type Validator,
} from './apiServer.ts';
export type { Identities } from './identities.ts';
export {
  emptyWorld,
  kindOfKey,
  worldMaps,
  serverIn,
  withServer,
  withQueue,
  type KubeWorld,
  type KubeWorldMaps,
  type Reconcile,
  type LocalValue,
} from './world.ts';
export { describeRequest, describeAnswer, describeEvent, describeCondition, objectView, worldView } from './describe.ts';
export {
  StepContext,
  resourceIsChanged,
  type ControllerConfig,
  type ManagerConfig,
  type WatchConfig,
  type HandlerEvent,
  type Step,
  type StepOutcome,
  type ServerContext,
} from './controller.ts';
export { addFinalizerStep, removeFinalizerStep, patchConditionsStep, patchThenReturn } from './steps.ts';
export {
  type Kubernetes,
  kubernetes,
  serverParticipant,
  type KubernetesConfig,
  type WorldField,
  type ObjectHistory,
  type InitialWorldOptions,
  type KubeFaults,
  type RequestDetail,
} from './kubernetes.ts';
export {
  readAuditLog,
  joinLogs,
  UnreadableLog,
  type AuditEvent,
  type AuditLog,
  type ObjectReference,
  type Place,
} from './audit/auditLog.ts';
export { replayAudit, type ReplayOptions, type ReplayReport, type Divergence, type Answer, type Tally } from './audit/replayAudit.ts';
export { auditEventOf, isRequestOf, objectJson, detailOf, MODEL_GROUP, MODEL_NAMESPACE } from './audit/requestJson.ts';
export { checkRecordedRun, auditLogsOf, serversAndKinds, type RecordedRunCheck } from './audit/traceValidation.ts';
