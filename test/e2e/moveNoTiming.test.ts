// The move model's old ordering without the timing assumption: the mover's delete phase may begin
// before every controller's cache shows the pause, as clusterctl move allows (it does not wait
// for it).
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The old ordering now also loses the infrastructure: the DockerCluster controller, whose cache
// does not show the Cluster paused yet, sees its DockerCluster deleting and runs reconcileDelete.
// A lasso: the DockerCluster is left deleting with its finalizer and the Cluster is gone, so
// GetOwnerCluster fails (NotFound) and the controller requeues it for ever, to no effect.
describeMoveVariant('v1.9.3-no-timing-assumption');

// The fixed ordering without the timing assumption (v1.9.5-no-timing-assumption) is a row of the
// faults matrix: moveFaultsSharded.test.ts checks it against the same record, as the merge of a
// sharded run.
