// The move model in the middle of a rollout (see moveUnreconciledV195.test.ts), old ordering.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The MachineSet controller adds its finalizer for the first time while the move runs, and again
// after the mover removed it (EnsureFinalizer from its cached copy, before its pause check); the
// Cluster ends stuck as in v1.9.3. Figures from the run of 2026-12-04.
describeMoveVariant('v1.9.3-unreconciled');
