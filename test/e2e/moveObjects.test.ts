// The "objects" matrix of models/move.ts that finishes in seconds to two minutes: one Cluster
// (the old ordering's baseline), two Clusters in one move and a Cluster with a Machine and its
// DockerMachine under the fixed ordering, all with caches that never lag (the old ordering's
// two-Cluster and Machine rows, 1.6 and 3.3 million states, are in the slow tier). Verdicts, exact counts and every counterexample.
// Their figures are the docs record's (test/helpers/moveVariant.ts); the deciding traces were
// read against the model and the real code (docs/move.md, 'Matrix: objects').
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.9.3-no-timing-assumption.cache-lag-0');

describeMoveVariant('two-clusters.v1.9.5-mover.cache-lag-0.no-timing-assumption');

describeMoveVariant('cluster-with-machine.v1.9.5-mover.cache-lag-0.no-timing-assumption');
