// models/bugs/capi8946.ts, kubernetes-sigs/cluster-api#8946 and its fix (PR #8949): the v1.4.4
// Cluster controller's 422 loop on a Cluster deleted before it had its finalizer is found by the
// search, a lasso; the v1.5.0 ordering is proved, also under restarts, coalescing and resyncs.
// The figures are the docs record's (docs/capi8946.manifest.json); the traces were read against
// the upstream code cited in the model file, step by step.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['v1.4.4', 'v1.5.0', 'v1.5.0.faults']) describeModelVariant('models/bugs/capi8946.ts', variant);
