// Every call into a model's code, wrapped so that what goes wrong in it becomes a ModelError
// naming the action or property and the state: a throw (MC101, MC103), a predicate that is not
// a boolean (MC104), a state that is not a state value (MC102). The breadth-first search and
// its parallel expanders share these wrappers; how a state is named (a trace in the search, an
// id to be resolved by the coordinator in an expander) is the caller's `fail`.
import type { Action, LivenessProperty, Property } from './model.ts';
import { DEADLOCK } from './model.ts';
import type { Fingerprint, Fingerprinter } from './fingerprint.ts';
import type { StateFingerprinter } from './symmetry.ts';
import { NotAStateValue } from './encoding.ts';
import { ModelError, type ModelErrorCode } from './errors.ts';

export type SafetyProperty<S> = Exclude<Property<S>, LivenessProperty<S>>;

export const DEADLOCK_PROPERTY = {
  kind: 'deadlock' as const,
  name: DEADLOCK,
  statement: 'Every reachable state has at least one successor.',
};

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

/** Builds the error for a fault found at state `id` (-1: before any state). */
export type Fail = (
  code: ModelErrorCode,
  message: string,
  subject: string,
  id: number,
  extra?: { cause?: unknown; hint?: string },
) => Error;

const NO_PARAMS: readonly undefined[] = [undefined];

export class ModelCalls<S> {
  constructor(
    private readonly fail: Fail,
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

  nextOf(a: Action<S, unknown>, s: S, p: unknown, id: number): S | undefined {
    try {
      return a.next(s, p);
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

  /** Fingerprints `s`, the successor produced by `subject` from state `sourceId`, into `out`. */
  fingerprint(s: S, out: Fingerprint, subject: string, sourceId: number): void {
    try {
      this.fingerprinter.of(s, out);
    } catch (cause) {
      if (this.symmetryName !== undefined && !(cause instanceof NotAStateValue) && !(cause instanceof ModelError)) {
        // A renaming of the model's own threw (the fingerprinter runs only model code there).
        throw this.threw('MC101_ACTION_THREW', `symmetry ${this.symmetryName}`, cause, sourceId);
      }
      if (cause instanceof NotAStateValue) {
        const where = subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
        throw this.fail(
          'MC102_NOT_A_STATE_VALUE',
          `${where} holds ${cause.message}; states must be immutable.js values and primitives`,
          subject,
          sourceId,
          { cause },
        );
      }
      throw cause;
    }
  }

  threw(code: 'MC101_ACTION_THREW' | 'MC103_PREDICATE_THREW', subject: string, cause: unknown, id: number): Error {
    const what = code === 'MC101_ACTION_THREW' ? (subject === 'init' ? 'init()' : `action ${subject}`) : `property ${subject}`;
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    return this.fail(code, `${what} threw ${message}`, subject, id, { cause });
  }
}

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
 * Names the first action whose successors differ between two expansions of one state, each a
 * list of (action, fingerprint hi, lo) triples, and says how; undefined if they are the same.
 */
export function nondeterminism(
  actionNames: readonly string[],
  first: readonly number[],
  second: readonly number[],
): { action: string; how: string } | undefined {
  if (first.length === second.length && first.every((x, i) => x === second[i])) return undefined;
  const of = (list: readonly number[], ai: number) => {
    const out: string[] = [];
    for (let i = 0; i < list.length; i += 3) if (list[i] === ai) out.push(`${list[i + 1]}:${list[i + 2]}`);
    return out;
  };
  let culprit = 0;
  while (culprit < actionNames.length - 1 && of(first, culprit).join() === of(second, culprit).join()) culprit++;
  const [n1, n2] = [of(first, culprit).length, of(second, culprit).length];
  const how = n1 !== n2 ? `${n1} successor${n1 === 1 ? '' : 's'}, then ${n2}` : 'different successors';
  return { action: actionNames[culprit], how };
}

/** Expands `s` again, writing its successors as (action, fingerprint hi, lo) triples into `out`. */
export function successorPrints<S>(actions: readonly Action<S, unknown>[], calls: ModelCalls<S>, s: S, id: number, out: number[]): void {
  out.length = 0;
  const fp: Fingerprint = { hi: 0, lo: 0 };
  for (let ai = 0; ai < actions.length; ai++) {
    const a = actions[ai];
    for (const p of calls.paramsOf(a, s, id)) {
      const t = calls.nextOf(a, s, p, id);
      if (t === undefined) continue;
      calls.fingerprint(t, fp, a.name, id);
      out.push(ai, fp.hi, fp.lo);
    }
  }
}

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
