// The larger matrix-only variants of models/move.ts (PR #11284 alone, about 1 million states in
// all; clusterctl crashing and re-run, 0.9 million with the fixed ordering and 2.4 million with
// the old one; under the old ordering two Clusters, 1.6 million, and a Cluster with a Machine,
// 3.3 million): the slow tier (npm run test:slow).
// Their figures are the docs record's (test/helpers/moveVariant.ts); the deciding traces were
// read against the model and the real code (docs/move.md, 'Variant matrices').
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover.no-timing-assumption');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover.no-timing-assumption');

// The second reading of the code (issue 19): a re-run sends the source object as read, and a
// DockerCluster the first run DELETEd (before it could remove the finalizers) carries its
// deletionTimestamp; the target's UPDATE refuses it (422, the field is immutable), so every
// re-run fails at createTargetObject and the DockerCluster stays deleting with its finalizer.
// Read against models/move.ts step by step: the first run deletes the DockerCluster (9), dies
// (10), the re-run pauses, finds both target objects already there (12, 13: 409, then the
// 422) and fails; the caches and controllers then settle, each controller writing its Paused
// condition (True, at the generation the pause or the DELETE left) and then returning, and
// nothing removes the finalizer (FailedMoveLeavesNoObjectBeingDeleted, in the state where move
// has failed and everything has settled; the liveness lasso stutters there).
// 2026-12-04: 985,808 -> 597,734 states once UPDATE kept the target's status; -> 942,457 with
// generations and the locked condition patch (place 4).
describeMoveVariant('v1.9.5.mover-rerun');

// The design alternative for the re-run above: the copy drops deletionTimestamp, the re-run's
// UPDATE succeeds, and its delete phase removes the finalizer. It is the re-run row as this model
// had it before the second reading (the copy then dropped deletionTimestamp), with the same counts.
describeMoveVariant('v1.9.5.mover-rerun.copy-drops-deletion-timestamp');

describeMoveVariant('cluster-with-machine.v1.9.3-mover.cache-lag-0.no-timing-assumption');

describeMoveVariant('v1.9.3.mover-rerun');

describeMoveVariant('two-clusters.v1.9.3-mover.cache-lag-0.no-timing-assumption');
