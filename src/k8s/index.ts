// Kubernetes API-server and controller-runtime semantics, reusable by any model. Nothing in
// this folder knows about clusterctl or any particular controller.
export {
  KubeObject,
  kubeObject,
  objectKey,
  keyOf,
  isDeleting,
  hasFinalizer,
  withFinalizer,
  withoutFinalizer,
  addsFinalizer,
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
  del,
  NO_NEW_FINALIZERS,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type MergePatch,
  type WatchEventType,
} from './apiServer.ts';
export { KubeWorld, Reconcile, type LocalValue } from './world.ts';
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
} from './controller.ts';
export {
  Kubernetes,
  kubernetes,
  serverParticipant,
  type KubernetesConfig,
  type Lens,
  type ObjectHistory,
  type InitialWorldOptions,
  type KubeFaults,
} from './kubernetes.ts';
