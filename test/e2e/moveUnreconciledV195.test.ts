// The move model in the middle of a rollout: a MachineSet the MachineDeployment controller has just
// created, listed by move before the MachineSet controller first reconciled it (no finalizer yet;
// move's preflight does not look at MachineSets), fixed ordering.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The fix's own gap, on the MachineSet: deleteSourceObject decides whether to remove finalizers on
// the annotate-response copy, which has none; the MachineSet controller's EnsureFinalizer (which
// runs before its pause check) lands before the DELETE, which then only marks the MachineSet; the
// mover skips the removal, and the paused controller never removes its finalizer. With the Cluster
// gone, GetClusterByName fails and the controller requeues the MachineSet for ever (the lasso).
// The trace was read against the model and machineset_controller.go (docs/capi-semantics.md); its
// figures are the docs record's.
describeMoveVariant('v1.9.5-unreconciled');
