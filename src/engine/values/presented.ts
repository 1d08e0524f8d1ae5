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
