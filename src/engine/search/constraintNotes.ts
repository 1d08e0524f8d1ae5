// Liveness under a state constraint, where the verdict rests on the constraint. TLC reads a fair
// action's ENABLED on the spec, not on the graph the constraint cuts (Specifying Systems 14.3.5),
// and so does the liveness phase (liveness.ts): where a fair action's only steps leave the
// constraint, a behaviour that stops there is not fair. Then a property may hold only because
// the behaviours that break it are unfair at the bound, or hold of no behaviour at all because
// none is fair inside the bound (tlaplus/tlaplus#839 asks TLC to warn of this). Both verdicts
// are TLC's; the report says so, with the step and the state, so that nobody reads them as proofs
// of the behaviours that stop at the bound.

/** A liveness property whose holding rests on the state constraint. */
export interface ConstraintNote {
  /**
   * 'noFairBehaviour': no fair behaviour stays inside the constraint, so the property holds of
   * none (vacuously); 'decided': read on the constrained graph alone, a behaviour would break it.
   */
  readonly kind: 'noFairBehaviour' | 'decided';
  readonly property: string;
  /** The state where a fair action's only steps leave the constraint, and that action. */
  readonly state: number;
  readonly action: number;
  /** The behaviour read on the graph alone stops in that state (rather than cycling through it). */
  readonly stops: boolean;
}

const GUARD_ADVICE =
  'To check the behaviours that stop at the bound, write the bound as a guard of the action instead of a state constraint ' +
  '(docs/guide.md, "Liveness under a state constraint").';

/** The warning for `note`: `path` the steps that reach its state, `step` the fair step out of the constraint there. */
export function constraintWarning(note: ConstraintNote, path: readonly string[], step: string): string {
  const where = path.length === 0 ? 'in an initial state' : `in the state reached by ${path.join(', ')}`;
  const cut = `${where}, ${step} is enabled, but its only steps leave the state constraint, and fairness requires it`;
  if (note.kind === 'noFairBehaviour') {
    return (
      `${note.property} holds only vacuously: no fair behaviour stays inside the state constraint. ${capital(cut)}: ` +
      `a behaviour may not stop there and cannot go on inside the constraint. TLC judges so too (ENABLED is read on the spec). ${GUARD_ADVICE}`
    );
  }
  const how = note.stops ? 'stops there' : 'goes round a cycle through it';
  return (
    `${note.property} holds only because of the state constraint: ${cut}, so a behaviour that ${how} is not fair, ` +
    `as TLC judges too; read on the constrained graph alone, it would violate ${note.property}. ${GUARD_ADVICE}`
  );
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
