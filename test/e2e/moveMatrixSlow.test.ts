// The larger matrix-only variants of models/move.ts (PR #11284 alone, about 1 million states in
// all; under the old ordering two Clusters, 1.6 million, and a Cluster with a Machine, 3.3
// million): the slow tier (npm run test:slow). The faults matrix's clusterctl re-runs (0.9 and 1
// million states with the fixed ordering, 2.4 million with the old one) are checked there too, as
// shards of the whole faults matrix (moveFaultsSharded.test.ts).
// Their figures are the docs record's (test/helpers/moveVariant.ts); the deciding traces were
// read against the model and the real code (docs/move.md, 'Variant matrices').
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover.no-timing-assumption');

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover.no-timing-assumption');

describeMoveVariant('cluster-with-machine.v1.9.3-mover.cache-lag-0.no-timing-assumption');

describeMoveVariant('two-clusters.v1.9.3-mover.cache-lag-0.no-timing-assumption');
