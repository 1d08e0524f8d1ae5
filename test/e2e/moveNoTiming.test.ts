// The move model without the timing assumption: the mover's delete phase may begin before every
// controller's cache shows the pause, as clusterctl move allows (it does not wait for it).
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The old ordering now also loses the infrastructure: the DockerCluster controller, whose cache
// does not show the Cluster paused yet, sees its DockerCluster deleting and runs reconcileDelete.
// A lasso: the DockerCluster is left deleting with its finalizer and the Cluster is gone, so
// GetOwnerCluster fails (NotFound) and the controller requeues it for ever, to no effect.
describeMoveVariant('v1.9.3-no-timing-assumption');

// The fix keeps the finalizers from coming back, but not the infrastructure: the DELETE of the
// DockerCluster reaches the DockerCluster controller before the pause does (the pause is read
// from the Cluster's cache entry, a different object), and reconcileDelete removes the load
// balancer. This is what the timing assumption is for. Since the DELETE bumps the DockerCluster's
// generation, the controller's first pass only writes Paused=False again at the new
// observedGeneration and returns; that write's own event queues it again, and the second pass
// runs reconcileDelete (the locked condition patch goes through: the cache is current by then).
describeMoveVariant('v1.9.5-no-timing-assumption');
