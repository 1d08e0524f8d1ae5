// Names from Cluster API's API types and clusterctl, shared by the models in this folder.
// api/v1beta1 cluster_types.go ClusterFinalizer.
export const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io';
// api/v1beta1 common_types.go PausedAnnotation; clusterctl/api/v1alpha3 DeleteForMoveAnnotation.
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';
export const DELETE_FOR_MOVE_ANNOTATION = 'clusterctl.cluster.x-k8s.io/delete-for-move';
// The v1beta2 condition set by paused.EnsurePausedCondition (util/paused/paused.go), and its
// reasons (api/v1beta1 v1beta2_condition_consts.go PausedV1Beta2Reason, NotPausedV1Beta2Reason).
export const PAUSED_CONDITION = 'Paused';
export const PAUSED_REASON = 'Paused';
export const NOT_PAUSED_REASON = 'NotPaused';
// clusterctl client.go newWriteBackoff: Steps 10.
export const MAX_MOVE_ATTEMPTS = 10;
