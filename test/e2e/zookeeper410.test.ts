// models/bugs/zookeeper410.ts, pravega/zookeeper-operator#410 and the fix of PR #530: the search
// finds the ConfigMap created again for a ZookeeperCluster that is gone (Sieve's reproduction of
// the bug), and proves the fix, also with a restart and with two clusters under symmetry. The figures are the docs record's
// (docs/zookeeper410.manifest.json); the trace was read against the code cited in the model file.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['5c46a5c1', 'pr530', 'pr530.faults', 'pr530.2clusters'])
  describeModelVariant('models/bugs/zookeeper410.ts', variant);
