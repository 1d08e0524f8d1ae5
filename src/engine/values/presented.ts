// How a state value may show itself to the reports as another value. A library that holds its
// part of the state in a form made for the search (the Kubernetes world: one record of parts
// by owner) shows it as the form its readers know (Maps by owner), so that the `--json`
// document, ITF, the explorer and diffs read as before. The search, the fingerprints and the
// state codec never look at it: only what renders a state for a reader (unpack, packedType.ts).
/** A method on a value (on its prototype) giving the value the reports show in its place. */
export const PRESENTED = Symbol('modelcheck.presented');

export interface Presented {
  [PRESENTED](): unknown;
}

export function isPresented(v: unknown): v is Presented {
  return v !== null && typeof v === 'object' && typeof (v as Partial<Presented>)[PRESENTED] === 'function';
}

/**
 * On the prototype of a Record type every field of which is meaningful: the immutable.js Record
 * type a packed record unpacks to (packed/record.ts). A packed type's defaults are only its
 * types' first values (`oneOf`'s first value, 0), not "absent", so a report that leaves out a
 * Record's fields at their defaults (as it does for immutable.js Records, whose authors choose
 * the defaults) must show these whole: a message `{type: req, clock: 1}` is not `{clock: 1}`.
 */
export const ALL_FIELDS: unique symbol = Symbol('modelcheck.allFields');

/** Whether a Record (or anything) is one whose every field a report should show (ALL_FIELDS). */
export function showsAllFields(v: unknown): boolean {
  return v !== null && typeof v === 'object' && (v as { [ALL_FIELDS]?: boolean })[ALL_FIELDS] === true;
}
