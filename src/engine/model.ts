// The model contract: what a model gives the checker. A model never sees a queue, a
// fingerprint or a visited set; it describes initial states, actions and properties over
// immutable values. Nothing here knows about Kubernetes.

/**
 * An action: a named step of the system. Nondeterminism and parameters are one thing, as in
 * TLA+'s `\E p \in P : A(p)`: `params(s)` lists the choices, and `next(s, p)` gives the one
 * successor for that choice, or `undefined` when the action is not enabled for it. A trace names
 * each step as `name(param)`, so every successor is identified by its action and parameter.
 */
export interface Action<S, P = unknown> {
  readonly name: string;
  /** The choices in state `s`; omitted for an action without parameters. */
  readonly params?: (s: S) => Iterable<P>;
  /** The successor for choice `p`, or `undefined` when disabled. Must be deterministic. */
  readonly next: (s: S, p: P) => S | undefined;
  /** How a parameter reads in a trace; `String(p)` by default. */
  readonly formatParam?: (p: P) => string;
  /** One or two sentences on what the step is and where it comes from in the real code. */
  readonly doc?: string;
}

/** A state predicate that must hold in every reachable state. */
export interface Invariant<S> {
  readonly kind: 'invariant';
  readonly name: string;
  readonly statement: string;
  readonly holds: (s: S) => boolean;
}

/** A predicate over every step (s, t), stuttering steps included. */
export interface ActionProperty<S> {
  readonly kind: 'action';
  readonly name: string;
  readonly statement: string;
  readonly holds: (s: S, t: S) => boolean;
}

/**
 * A predicate that must hold in every reachable state from which no action leads to a different
 * state: the states where the system has settled.
 */
export interface SettledInvariant<S> {
  readonly kind: 'settled';
  readonly name: string;
  readonly statement: string;
  readonly holds: (s: S) => boolean;
}

export type Property<S> = Invariant<S> | ActionProperty<S> | SettledInvariant<S>;
export type PropertyKind = Property<unknown>['kind'] | 'deadlock';

/** The name under which deadlocks are reported and may be expected. */
export const DEADLOCK = 'Deadlock';

/** One checkable configuration of a model. */
export interface Variant<S> {
  readonly name: string;
  readonly description?: string;
  /** Assumptions this variant makes, in plain words; printed with every result. */
  readonly assumptions?: readonly string[];
  readonly init: () => Iterable<S>;
  readonly actions: readonly Action<S, any>[];
  readonly properties: readonly Property<S>[];
  /** A state with no successor at all is an error unless this is false. Default true. */
  readonly checkDeadlock?: boolean;
  /** The properties this variant is expected to violate (names; `Deadlock` for deadlocks). */
  readonly expectedViolations?: readonly string[];
}

/** What a model module exports as its default export. */
export interface Model {
  readonly kind: 'modelcheck.model';
  readonly name: string;
  readonly description?: string;
  readonly variants: readonly Variant<any>[];
}

export function action<S, P = undefined>(
  name: string,
  def: Omit<Action<S, P>, 'name'>,
): Action<S, P> {
  return { name, ...def };
}

export function invariant<S>(name: string, statement: string, holds: (s: S) => boolean): Invariant<S> {
  return { kind: 'invariant', name, statement, holds };
}

export function actionProperty<S>(
  name: string,
  statement: string,
  holds: (s: S, t: S) => boolean,
): ActionProperty<S> {
  return { kind: 'action', name, statement, holds };
}

export function settledInvariant<S>(
  name: string,
  statement: string,
  holds: (s: S) => boolean,
): SettledInvariant<S> {
  return { kind: 'settled', name, statement, holds };
}

/** Declares a model: one or more variants checked together. */
export function defineModel(def: {
  name: string;
  description?: string;
  variants: readonly Variant<any>[];
}): Model {
  return { kind: 'modelcheck.model', ...def };
}

/** Declares a model with a single variant, named `default`. */
export function defineSingleModel<S>(
  def: { name: string; description?: string } & Omit<Variant<S>, 'name'>,
): Model {
  const { name, description, ...variant } = def;
  return defineModel({ name, description, variants: [{ name: 'default', description, ...variant }] });
}

export function isModel(value: unknown): value is Model {
  return typeof value === 'object' && value !== null && (value as Model).kind === 'modelcheck.model';
}

/** How a step reads in a trace: `name` or `name(param)`. */
export function stepLabel<S, P>(a: Action<S, P>, p: P): string {
  if (!a.params) return a.name;
  return `${a.name}(${a.formatParam ? a.formatParam(p) : String(p)})`;
}
