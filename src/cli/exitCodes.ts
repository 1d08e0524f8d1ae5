// Exit statuses, and how a result maps to one.
import type { VariantSummary } from '../report/text.ts';

export const EXIT = {
  /** Every checked variant met its expectations (without expectations: no violation). */
  OK: 0,
  /** Some variant did not meet its expectations. */
  NOT_MET: 1,
  /** A usage error or a broken model. */
  ERROR: 2,
  /** A search stopped before it was complete (a limit was hit). */
  INCOMPLETE: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export function exitCodeOf(variants: readonly VariantSummary[]): ExitCode {
  // An unexpected violation is definite even in an incomplete search, so it wins.
  const unexpected = variants.some((v) => v.violated.some((p) => !v.expectedViolations.includes(p)));
  if (unexpected) return EXIT.NOT_MET;
  if (variants.some((v) => v.verdict === 'incomplete' || v.incompleteReason)) return EXIT.INCOMPLETE;
  return variants.every((v) => v.metExpectations) ? EXIT.OK : EXIT.NOT_MET;
}
