// models/bugs/capi13649.ts, kubernetes-sigs/cluster-api#13649 and the stale-controller mitigation
// of PR #13720 (v1.14.0): the search finds the second MachineSet created after the timed wait gives
// up (the log: a create, "Failed to wait for cache to be up-to-date", another create), and
// proves the fix, also with a restart, and finds that a restart against a lagging API server still
// duplicates (the record of writes is in memory). The figures are the docs record's
// (docs/capi13649.manifest.json); the trace was read against the code cited in the model file.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['v1.13.2', 'v1.14.0', 'v1.14.0.faults', 'v1.14.0.timeTravel'])
  describeModelVariant('models/bugs/capi13649.ts', variant);
