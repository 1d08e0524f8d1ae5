// models/bugs/cassoperator412.ts, datastax/cass-operator#412: the search finds the new
// datacenter's PVC deleted after a restart against a lagging API server (Sieve's stale-state bug),
// shows that without time travel the restart is harmless, that the proposed UID label (PR #416)
// still loses the volume when the lagging server is behind on the PVCs too, and proves the label
// with a UID precondition on the DELETE. The figures are the docs record's
// (docs/cassoperator412.manifest.json); the traces were read against the code cited in the model file.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['dbd4f7a.restart', 'dbd4f7a.timeTravel', 'pr416.timeTravel', 'pr416+preconditions.timeTravel'])
  describeModelVariant('models/bugs/cassoperator412.ts', variant);
