// Every call into a model's code, wrapped so that what goes wrong in it becomes a fault naming
// the action or property and the state's id: a throw (MC101, MC103), a predicate that is not a
// boolean (MC104), a state that is not a state value (MC102). A fault is thrown as FaultThrown
// (errors.ts), plain data, and the search that called turns it into a ModelError with the
// state's trace at its own boundary, in whichever thread it is.
import type { Action, LivenessProperty, Property, StepEvent } from './model.ts';
import { DEADLOCK } from './model.ts';
import type { Fingerprint, Fingerprinter } from './values/fingerprint.ts';
import type { StateFingerprinter } from './search/symmetry.ts';
import { NotAStateValue, UnnamedRecord } from './values/encoding.ts';
import { FaultThrown, ModelError, causeOf, type ModelErrorCode } from './errors.ts';
import type { PropertyResult, PropertyStatus } from './result.ts';

export type SafetyProperty<S> = Exclude<Property<S>, LivenessProperty<S>>;

export const DEADLOCK_PROPERTY = {
  kind: 'deadlock' as const,
  name: DEADLOCK,
  statement: 'Every reachable state has at least one successor.',
};

/** Every property a variant's result reports: its own, and deadlock when it is checked. */
export function reportedProperties<S>(
  v: { readonly properties: readonly Property<S>[] },
  checkDeadlock: boolean,
): { name: string; kind: Property<S>['kind'] | 'deadlock'; statement: string }[] {
  return checkDeadlock ? [...v.properties, DEADLOCK_PROPERTY] : [...v.properties];
}

/** Each reported property's line in a result: its status and, where it has one, its premise count. */
export function propertyResults<S>(
  v: { readonly properties: readonly Property<S>[]; readonly expectedViolations: readonly string[] },
  checkDeadlock: boolean,
  status: (name: string) => PropertyStatus,
  premise: (p: { name: string; kind: string }) => { premiseStates?: number; vacuous: boolean },
): PropertyResult[] {
  const expected = v.expectedViolations;
  return reportedProperties(v, checkDeadlock).map((p) => ({
    name: p.name,
    kind: p.kind,
    statement: p.statement,
    status: status(p.name),
    expectedViolated: expected.includes(p.name),
    ...premise(p),
  }));
}

/** A variant's safety properties, by when they are checked. */
export function splitProperties<S>(properties: readonly Property<S>[]) {
  const safety = properties.filter((p): p is SafetyProperty<S> => p.kind !== 'liveness');
  return {
    invariants: safety.filter((p) => p.kind === 'invariant'),
    stepProperties: safety.filter((p) => p.kind === 'action'),
    settledProperties: safety.filter((p) => p.kind === 'settled'),
    livenessProperties: properties.filter((p): p is LivenessProperty<S> => p.kind === 'liveness'),
  };
}

const NO_PARAMS: readonly undefined[] = [undefined];

export class ModelCalls<S> {
  constructor(
    private readonly fingerprinter: StateFingerprinter,
    /** The symmetry's name when the fingerprinter renames states with the model's own code. */
    private readonly symmetryName?: string,
  ) {}

  paramsOf(a: Action<S, unknown>, s: S, id: number): Iterable<unknown> {
    if (!a.params) return NO_PARAMS;
    try {
      // Materialized so that a throwing iterator is caught here, with the action's name.
      const ps = a.params(s);
      return Array.isArray(ps) ? ps : Array.from(ps);
    } catch (cause) {
      throw this.threw('MC101_ACTION_THREW', a.name, cause, id);
    }
  }

  nextOf(a: Action<S, unknown>, s: S, p: unknown, id: number, events?: StepEvent[]): S | undefined {
    try {
      return a.next(s, p, events);
    } catch (cause) {
      throw this.threw('MC101_ACTION_THREW', a.name, cause, id);
    }
  }

  /** Evaluates one of `p`'s predicates, turning a throw or a non-boolean into a ModelError. */
  evaluate(p: { readonly name: string }, f: (s: S, t: S) => boolean, id: number, s: S, t?: S): boolean {
    let r: unknown;
    try {
      r = f(s, t as S);
    } catch (cause) {
      throw this.threw('MC103_PREDICATE_THREW', p.name, cause, id);
    }
    if (typeof r !== 'boolean') {
      throw this.fail('MC104_NOT_A_BOOLEAN', `property ${p.name} returned ${r === null ? 'null' : typeof r}, not a boolean`, p.name, id);
    }
    return r;
  }

  holds(p: SafetyProperty<S>, id: number, s: S, t?: S): boolean {
    return this.evaluate(p, p.kind === 'action' ? p.holds : (p.holds as (s: S, t: S) => boolean), id, s, t);
  }

  /** Whether `p`'s premise holds in `s` (true when it has none). */
  premise(p: SafetyProperty<S>, id: number, s: S): boolean {
    if (p.kind === 'action' || p.premise === undefined) return true;
    return this.evaluate(p, p.premise, id, s);
  }

  /** Whether `s`, made by `subject` from state `id` (-1: an initial state), satisfies the variant's state constraint. */
  admits(constraint: (s: S) => boolean, id: number, s: S, subject: string): boolean {
    let r: unknown;
    try {
      r = constraint(s);
    } catch (cause) {
      const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
      throw this.fail('MC103_PREDICATE_THREW', `the state constraint threw ${message} on ${stateOf(subject)}`, 'constraint', id, { cause });
    }
    if (typeof r !== 'boolean') {
      throw this.fail(
        'MC104_NOT_A_BOOLEAN',
        `the state constraint returned ${r === null ? 'null' : typeof r}, not a boolean, on ${stateOf(subject)}`,
        'constraint',
        id,
      );
    }
    return r;
  }

  /** Fingerprints `s`, the successor produced by `subject` from state `sourceId`, into `out`. */
  fingerprint(s: S, out: Fingerprint, subject: string, sourceId: number): void {
    try {
      this.fingerprinter.of(s, out);
    } catch (cause) {
      if (
        this.symmetryName !== undefined &&
        !(cause instanceof NotAStateValue) &&
        !(cause instanceof UnnamedRecord) &&
        !(cause instanceof ModelError)
      ) {
        // A renaming of the model's own threw (the fingerprinter runs only model code there).
        throw this.threw('MC101_ACTION_THREW', `symmetry ${this.symmetryName}`, cause, sourceId);
      }
      if (cause instanceof UnnamedRecord) {
        const where = subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
        throw this.fail('MC112_UNNAMED_RECORD', `${where} holds ${cause.message}`, subject, sourceId, { hint: UNNAMED_RECORD_HINT });
      }
      if (cause instanceof NotAStateValue) {
        const where = subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
        throw this.fail(
          'MC102_NOT_A_STATE_VALUE',
          `${where} holds ${cause.message}; states must be immutable.js values, plain arrays and objects, and primitives`,
          subject,
          sourceId,
          { cause },
        );
      }
      throw cause;
    }
  }

  /** The fault found at state `id` (-1: before any state), to be thrown to the search's boundary. */
  fail(code: ModelErrorCode, message: string, subject: string, id: number, extra?: { cause?: unknown; hint?: string }): FaultThrown {
    const c = extra?.cause;
    return new FaultThrown({ code, message, subject, id, ...(extra?.hint ? { hint: extra.hint } : {}), cause: causeOf(c) }, c);
  }

  threw(code: 'MC101_ACTION_THREW' | 'MC103_PREDICATE_THREW', subject: string, cause: unknown, id: number): FaultThrown {
    const what = code === 'MC101_ACTION_THREW' ? (subject === 'init' ? 'init()' : `action ${subject}`) : `property ${subject}`;
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    return this.fail(code, `${what} threw ${message}`, subject, id, { cause });
  }
}

function stateOf(subject: string): string {
  return subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
}

/** The fix of MC112. */
export const UNNAMED_RECORD_HINT = "name every Record type, and each with a name of its own: Record({ ... }, 'Name')";

/** The initial states, with a throw from init() or its iterator turned into MC101. */
export function* initialStates<S>(init: () => Iterable<S>, calls: ModelCalls<S>): Iterable<S> {
  let iterator: Iterator<S>;
  try {
    iterator = init()[Symbol.iterator]();
  } catch (cause) {
    throw calls.threw('MC101_ACTION_THREW', 'init', cause, -1);
  }
  for (;;) {
    let r: IteratorResult<S>;
    try {
      r = iterator.next();
    } catch (cause) {
      throw calls.threw('MC101_ACTION_THREW', 'init', cause, -1);
    }
    if (r.done) return;
    yield r.value;
  }
}

/** The hint of MC107, for every way an action shows it is not a function of the state. */
export const DETERMINISM_HINT =
  'init(), params() and next() must return the same values every time they are called with the same state (no Math.random, clocks or counters outside the state)';

/**
 * Which states are expanded a second time to check that the model's actions are functions of
 * the state (the same successors, in the same order, every time): the first DETERMINISM_ALL
 * states, where a careless model goes wrong at once, then one in DETERMINISM_EVERY, about
 * 1.6% more work. A nondeterministic action elsewhere is still caught when a trace through it
 * is replayed, less clearly.
 */
const DETERMINISM_ALL = 64;
const DETERMINISM_EVERY = 64;

/** Whether the state numbered `id` is expanded twice (see above); by id, whatever thread expands it. */
export function sampledForDeterminism(id: number): boolean {
  return id < DETERMINISM_ALL || id % DETERMINISM_EVERY === 0;
}

/**
 * What stands for a step's parameter in fairness per parameter: the value itself when it is a
 * primitive (A(k) and B(k) of one group are the same instance), else its fingerprint, taken
 * with a fingerprinter of its own (`printer`) so that the search's pending state encoding is
 * left alone; a parameter that is not a state value (a plain object) is told by its label.
 */
export function parameterKey<S>(a: Action<S, unknown>, p: unknown, printer: Fingerprinter, fp: Fingerprint): unknown {
  if (typeof p !== 'object' || p === null) return p;
  try {
    printer.of(p, fp);
  } catch (cause) {
    if (!(cause instanceof NotAStateValue)) throw cause;
    return `\u0000${a.formatParam ? a.formatParam(p) : JSON.stringify(p)}`;
  }
  return `\u0000${fp.hi}:${fp.lo}`;
}
