// The matrix-only variants of models/move.ts (history, alternatives, faults) that finish in
// seconds to a minute: verdicts, exact counts and every counterexample, for each row.
// Their figures are the docs record's (test/helpers/moveVariant.ts); the deciding traces were
// read against the model and the real code (docs/move.md, 'Variant matrices').
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.8.0-controllers.v1.9.3-mover');

describeMoveVariant('v1.8.0-controllers.v1.9.5-mover');

describeMoveVariant('v1.8.0-controllers.v1.9.3-mover.no-timing-assumption');

describeMoveVariant('v1.8.0-controllers.v1.9.5-mover.no-timing-assumption');

describeMoveVariant('v1.8.0+11286-controllers.v1.9.3-mover');

describeMoveVariant('v1.8.0+11286-controllers.v1.9.5-mover');

describeMoveVariant('v1.8.0+11286-controllers.v1.9.3-mover.no-timing-assumption');

describeMoveVariant('v1.8.0+11286-controllers.v1.9.5-mover.no-timing-assumption');

describeMoveVariant('v1.9.3-controllers.v1.9.3-mover-waits-for-paused');

describeMoveVariant('v1.9.3-controllers.v1.9.5-mover-waits-for-paused');

describeMoveVariant('v1.9.3-controllers.v1.9.3-mover-waits-for-paused.no-timing-assumption');

describeMoveVariant('v1.9.3-controllers.v1.9.5-mover-waits-for-paused.no-timing-assumption');

describeMoveVariant('v1.9.5.controller-restart');

describeMoveVariant('v1.9.5.coalesced-events');

describeMoveVariant('v1.9.5-no-timing-assumption.cache-lag-0');

describeMoveVariant('v1.9.5-no-timing-assumption.cache-lag-1');

describeMoveVariant('v1.9.5.resync');
