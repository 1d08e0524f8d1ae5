// models/bugs/kubernetes65200.ts, kubernetes/kubernetes#88097 read as #65200, and the fix of
// kubernetes#92743 (v1.20): the search finds the valid dependent deleted by a collector that
// observed the invalid one first (the order #65200 calls non-deterministic), and proves the
// identity-keyed absent-owner cache. The figures are the docs record's
// (docs/kubernetes65200.manifest.json); the trace was read against the code cited in the model file.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['v1.19', 'v1.20']) describeModelVariant('models/bugs/kubernetes65200.ts', variant);
