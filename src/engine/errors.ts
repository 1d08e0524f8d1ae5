// Faults in a model (as opposed to verdicts about it): typed, with a code, and naming the model,
// the action or property, and the state involved. The engine throws only ModelError, or a real
// bug; the CLI is the single place that catches and prints them.
import type { TraceStep } from './search/trace.ts';

export type ModelErrorCode =
  | 'MC001_MODEL_FILE_MISSING' // the model file does not exist
  | 'MC002_MODEL_LOAD_FAILED' // the module could not be loaded (syntax error, failed import)
  | 'MC003_NO_MODEL_EXPORT' // the module has no default export made with defineModel
  | 'MC004_UNKNOWN_VARIANT' // --variant names no variant of the model
  | 'MC005_TYPE_ERROR' // the model's files do not type-check
  | 'MC006_BAD_PARAMETER' // --param names no parameter of the model, or its value is not a whole number in range
  | 'MC007_CHECKPOINT_REFUSED' // a checkpoint is missing, damaged, or was written for other model files, variant, parameters or options
  | 'MC100_NO_INIT_STATE' // init() produced no state
  | 'MC101_ACTION_THREW' // an action's params() or next() threw
  | 'MC102_NOT_A_STATE_VALUE' // a state holds something that is not an immutable value
  | 'MC103_PREDICATE_THREW' // a property's predicate threw
  | 'MC104_NOT_A_BOOLEAN' // a property's predicate returned something other than a boolean
  | 'MC105_DUPLICATE_NAME' // two actions, properties or variants share a name
  | 'MC106_UNKNOWN_EXPECTATION' // expectedViolations names no property of the variant
  | 'MC107_NOT_DETERMINISTIC' // replaying a recorded step did not reproduce it
  | 'MC108_UNKNOWN_FAIRNESS_ACTION' // a fairness constraint names no action of the variant
  | 'MC109_BAD_MATRIX' // --matrix on a model without one, or a row naming no variant or with the wrong number of values
  | 'MC110_SYMMETRY_REFUSED' // symmetry reduction asked for with liveness properties or --exact
  | 'MC111_KUBERNETES_WIRING' // a Kubernetes environment names a part that does not exist, or has a part nothing uses
  | 'MC112_UNNAMED_RECORD' // a state holds a Record type with no name, or two Record types share one
  | 'MC113_UNKNOWN_ACTION'; // an action to avoid in a simulation (a swarm plan's --avoid-some) is no action of the variant

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly details: {
      readonly model?: string;
      readonly variant?: string;
      /** The action or property involved. */
      readonly subject?: string;
      /** The state involved, and how the search reached it. */
      readonly trace?: readonly TraceStep[];
      readonly depth?: number;
      readonly cause?: unknown;
      /** Further lines that belong to the message, such as the compiler's diagnostics. */
      readonly lines?: readonly string[];
      readonly hint?: string;
    } = {},
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** MC100: `init()` gave no state. One error for every search mode. */
export function noInitialState(model: string, variant: string): ModelError {
  return new ModelError('MC100_NO_INIT_STATE', `variant ${variant} has no initial state`, {
    model,
    variant,
    hint: 'init() must yield at least one state',
  });
}

/**
 * A fault met in the model's code during a search, as plain data: the one shape it has while
 * it travels (out of the successor loop, across threads by structured clone), before the
 * search that met it names the state with its trace (`toModelError`). `id` is the state's id
 * in the search, -1 before any state or where the search numbers none (simulation).
 */
export interface ModelFault {
  readonly code: ModelErrorCode;
  readonly message: string;
  readonly subject: string;
  readonly id: number;
  readonly hint?: string;
  readonly cause?: { readonly name: string; readonly message: string; readonly stack?: string };
}

/** Carries a ModelFault out of the model's code to the search's own boundary. */
export class FaultThrown extends Error {
  constructor(
    readonly fault: ModelFault,
    /** The thrown value itself, in the thread that caught it (the fault keeps only its text). */
    readonly original?: unknown,
  ) {
    super(fault.message);
    this.name = 'FaultThrown';
  }
}

/** A thrown value as plain data: what a fault keeps of its cause. */
export function causeOf(c: unknown): ModelFault['cause'] {
  if (c === undefined) return undefined;
  return c instanceof Error ? { name: c.name, message: c.message, stack: c.stack } : { name: 'Error', message: String(c) };
}

/** The user-facing error of a fault, with what the search knows of its state (model, variant, trace). */
export function toModelError(
  f: ModelFault,
  where: { readonly model?: string; readonly variant?: string; readonly trace?: readonly TraceStep[]; readonly depth?: number },
  original?: unknown,
): ModelError {
  let cause: unknown = original;
  if (cause === undefined && f.cause) {
    const e = new Error(f.cause.message);
    e.name = f.cause.name;
    if (f.cause.stack) e.stack = f.cause.stack;
    cause = e;
  }
  return new ModelError(f.code, f.message, {
    ...where,
    subject: f.subject,
    ...(cause !== undefined ? { cause } : {}),
    ...(f.hint ? { hint: f.hint } : {}),
  });
}
