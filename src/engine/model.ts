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
  /**
   * The successor for choice `p`, or `undefined` when disabled. Must be deterministic.
   * `events` is given only while a trace is rebuilt for a report, never during the search: an
   * action may push what the step did there (a request and its answer, a note), for the
   * trace's readers. It must not change what the action returns.
   */
  readonly next: (s: S, p: P, events?: StepEvent[]) => S | undefined;
  /** How a parameter reads in a trace; `String(p)` by default. */
  readonly formatParam?: (p: P) => string;
  /** One or two sentences on what the step is and where it comes from in the real code. */
  readonly doc?: string;
  /**
   * The action serves something a model may not use (a library's garbage collector finalizing
   * foreground and orphan deletions where nothing deletes so): a complete search does not warn
   * when it is never enabled. The coverage table still shows it.
   */
  readonly optional?: boolean;
}

/**
 * What a step did, beyond the state it left: told by the action while a trace is rebuilt, and
 * shown in text traces, sequence diagrams and generated docs.
 */
export type StepEvent =
  | {
      readonly kind: 'request';
      /** Who sent it; the step's actor (its action name up to the first dot) by default. */
      readonly from?: string;
      /** Who answered, e.g. `source API server`. */
      readonly to: string;
      /** The request, e.g. `DELETE Cluster/c1`. */
      readonly request: string;
      /** The answer, e.g. `200 OK` or `422 Invalid: ...`. */
      readonly answer: string;
      /** Whether the answer was a success. */
      readonly ok: boolean;
      /**
       * The request and its answer in the environment's own terms, for checking a recorded run
       * against the model (followLog.ts); the engine does not read it. The Kubernetes library
       * puts its RequestDetail (src/k8s/kubernetes.ts) here.
       */
      readonly detail?: unknown;
    }
  | {
      readonly kind: 'note';
      /** The participants the note is about; the step's actor by default. */
      readonly over?: readonly string[];
      readonly text: string;
    };

/** A state predicate that must hold in every reachable state. */
export interface Invariant<S> {
  readonly kind: 'invariant';
  readonly name: string;
  readonly statement: string;
  readonly holds: (s: S) => boolean;
  /**
   * Where the property has something to say: `holds` is checked only in states where the
   * premise holds. A property whose premise never held is reported as vacuous.
   */
  readonly premise?: (s: S) => boolean;
}

/** Options of invariant() and settledInvariant(). */
export interface PropertyOptions<S> {
  /** Check `holds` only where this holds; warn when it never does (the property is vacuous). */
  readonly premise?: (s: S) => boolean;
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
  /** As for invariants: `holds` is checked only in settled states where the premise holds. */
  readonly premise?: (s: S) => boolean;
}

/**
 * A temporal formula over state predicates, in the four shapes liveness checking supports:
 * `eventually(p)` (<>p), `always(eventually(p))` (p infinitely often, []<>p),
 * `eventuallyAlways(p)` (<>[]p) and `leadsTo(p, q)` (p ~> q: whenever p holds, q holds then or
 * later). Build them with the functions of those names.
 */
export type Temporal<S> =
  | { readonly op: 'eventually'; readonly p: (s: S) => boolean }
  | { readonly op: 'infinitelyOften'; readonly p: (s: S) => boolean }
  | { readonly op: 'eventuallyAlways'; readonly p: (s: S) => boolean }
  | { readonly op: 'leadsTo'; readonly p: (s: S) => boolean; readonly q: (s: S) => boolean };

/** <>p: every behaviour reaches a state where p holds. */
export function eventually<S>(p: (s: S) => boolean): Temporal<S> & { op: 'eventually' } {
  return { op: 'eventually', p };
}

/** []<>p, as `always(eventually(p))`: p holds infinitely often. */
export function always<S>(f: Temporal<S> & { op: 'eventually' }): Temporal<S> {
  return { op: 'infinitelyOften', p: f.p };
}

/** <>[]p: from some point on, p holds for ever. */
export function eventuallyAlways<S>(p: (s: S) => boolean): Temporal<S> {
  return { op: 'eventuallyAlways', p };
}

/** p ~> q, i.e. [](p => <>q): whenever p holds, q holds then or later. */
export function leadsTo<S>(p: (s: S) => boolean, q: (s: S) => boolean): Temporal<S> {
  return { op: 'leadsTo', p, q };
}

/**
 * A property of whole behaviours, checked on the reachable state graph under the variant's
 * fairness. Behaviours may stutter (repeat a state) for ever unless fairness forbids it, as in
 * TLA+: with no fairness, a liveness property rarely holds.
 */
export interface LivenessProperty<S> {
  readonly kind: 'liveness';
  readonly name: string;
  readonly statement: string;
  readonly formula: Temporal<S>;
}

export function liveness<S>(name: string, statement: string, formula: Temporal<S>): LivenessProperty<S> {
  return { kind: 'liveness', name, statement, formula };
}

/**
 * A fairness constraint, as TLA+'s WF and SF over a group of actions. A step counts as taken,
 * and the group as enabled, only where it changes the state (<<A>>_vars). With `perParameter`,
 * each parameter value is a constraint of its own (one per process, per object key, ...), as
 * `\A p : WF(A(p))`; without it the group is one disjunction, `WF(\E p : A1(p) \/ A2(p) ...)`.
 */
export interface Fairness {
  readonly kind: 'weak' | 'strong';
  /** How the constraint reads in reports, e.g. `mover` or `clusterController` (per parameter: per object key). */
  readonly name: string;
  /** The names of the actions in the group. */
  readonly actions: readonly string[];
  readonly perParameter: boolean;
}

export interface FairnessOptions {
  /** One constraint per parameter value rather than one for the group. Default false. */
  readonly perParameter?: boolean;
}

type ActionRef = string | { readonly name: string };

function fairness(kind: Fairness['kind'], name: string, actions: readonly ActionRef[], o: FairnessOptions): Fairness {
  return {
    kind,
    name,
    actions: actions.map((a) => (typeof a === 'string' ? a : a.name)),
    perParameter: o.perParameter ?? false,
  };
}

/** WF: a group that stays enabled for ever is eventually taken. */
export function weakFairness(name: string, actions: readonly ActionRef[], o: FairnessOptions = {}): Fairness {
  return fairness('weak', name, actions, o);
}

/** SF: a group that is enabled infinitely often is eventually taken. */
export function strongFairness(name: string, actions: readonly ActionRef[], o: FairnessOptions = {}): Fairness {
  return fairness('strong', name, actions, o);
}

export type Property<S> = Invariant<S> | ActionProperty<S> | SettledInvariant<S> | LivenessProperty<S>;
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
  // biome-ignore lint/suspicious/noExplicitAny: each action has its own parameter type; a list of them can name none
  readonly actions: readonly Action<S, any>[];
  readonly properties: readonly Property<S>[];
  /** Fairness constraints for the liveness properties. None by default. */
  readonly fairness?: readonly Fairness[];
  /** A state with no successor at all is an error unless this is false. Default true. */
  readonly checkDeadlock?: boolean;
  /**
   * A state constraint, as TLC's CONSTRAINT: it bounds the search without being part of the
   * system. A state that fails it is counted as generated and checked against the invariants
   * (and its step against the action properties) each time it is generated, but it is neither
   * stored nor expanded; a state whose only successors fail it is not a deadlock. Liveness is
   * checked on the graph of the states that satisfy it, as TLC does.
   */
  readonly constraint?: (s: S) => boolean;
  /** The properties this variant is expected to violate (names; `Deadlock` for deadlocks). */
  readonly expectedViolations?: readonly string[];
  /**
   * How a state reads in reports: an immutable (Ordered)Map from subjects (`source Cluster/c1`,
   * `mover`) to their parts, which traces diff field by field (`source Cluster/c1
   * metadata.finalizers: [] -> [x]`). Only reports call it. The state itself by default.
   */
  readonly view?: (s: S) => unknown;
  /**
   * Checked only as a row of the model's matrix (`--matrix`) or when named (`--variant`), not
   * in the default run: for the combinations that explain a result rather than state it.
   */
  readonly matrixOnly?: boolean;
  /**
   * Identities the model treats alike (see `symmetry()`): the search then keeps one state per
   * class of states that differ only by renaming them. Safety only; refused with liveness.
   */
  readonly symmetry?: Symmetry<S>;
  /**
   * What the model's own code can tell only from inside its steps (a library's watch that queued
   * a key, a read that found an object): a complete search warns of what it never saw, as it
   * warns of an action never enabled (see Coverage).
   */
  readonly coverage?: Coverage;
}

/**
 * Coverage a model (or a library it uses) keeps from inside its steps, as labels: strings it
 * notes when a step does something worth knowing it ever did. The engine forgets what each
 * thread's copy noted before its search (`reset`), gathers its labels after each level
 * (`drain`), keeps their union (in checkpoints too), and at the end of a complete search adds
 * `warnings(seen)` to the result's warnings. Labels must depend only on the steps taken, as
 * everything a model computes does.
 */
export interface Coverage {
  /** Forgets every label noted so far: a search begins. */
  reset(): void;
  /** The labels noted since the last call, forgotten once returned. */
  drain(): readonly string[];
  /** The warnings a complete search whose steps noted `seen` gives, in a stable order. */
  warnings(seen: ReadonlySet<string>): readonly string[];
}

/** A variant with its defaults resolved: what every part of the checker reads (normalizeVariant). */
export interface NormalVariant<S> extends Variant<S> {
  readonly assumptions: readonly string[];
  readonly fairness: readonly Fairness[];
  readonly checkDeadlock: boolean;
  readonly expectedViolations: readonly string[];
}

/**
 * The one place where a variant's defaults are resolved: no assumptions, no fairness, deadlock
 * checked, no violation expected. A variant that is already normal is given back as it is.
 */
export function normalizeVariant<S>(v: Variant<S>): NormalVariant<S> {
  if (v.assumptions !== undefined && v.fairness !== undefined && v.checkDeadlock !== undefined && v.expectedViolations !== undefined)
    return v as NormalVariant<S>;
  return {
    ...v,
    assumptions: v.assumptions ?? [],
    fairness: v.fairness ?? [],
    checkDeadlock: v.checkDeadlock ?? true,
    expectedViolations: v.expectedViolations ?? [],
  };
}

/** A group of renamings of a model's interchangeable identities, without the identity. */
export interface Symmetry<S> {
  readonly name: string;
  readonly permutations: readonly ((s: S) => S)[];
}

/**
 * Declares `ids` interchangeable: `rename(s, to)` must return `s` with every identity `i` in it
 * replaced by `to(i)` (keys, values, message texts alike). The group is every permutation of
 * `ids`, so keep them few (3 ids: 6 renamings, 4: 24, 5: 120).
 */
export function symmetry<S, I>(name: string, ids: readonly I[], rename: (s: S, to: (id: I) => I) => S): Symmetry<S> {
  const permutations: ((s: S) => S)[] = [];
  for (const order of permutationsOf(ids)) {
    if (order.every((id, k) => id === ids[k])) continue;
    const to = new Map(ids.map((id, k) => [id, order[k]] as const));
    permutations.push((s) => rename(s, (id) => to.get(id) ?? id));
  }
  return { name, permutations };
}

function permutationsOf<I>(ids: readonly I[]): I[][] {
  if (ids.length <= 1) return [[...ids]];
  return ids.flatMap((first, k) => permutationsOf([...ids.slice(0, k), ...ids.slice(k + 1)]).map((rest) => [first, ...rest]));
}

/**
 * A table of variants that differ along named dimensions (for example controller code x mover
 * ordering x an assumption): `--matrix` checks every row and prints the verdict of every
 * property per row, each from that row's search.
 */
export interface VariantMatrix {
  /** How `--matrix <name>` picks this matrix out of the model's. */
  readonly name: string;
  readonly description?: string;
  readonly dimensions: readonly string[];
  /** One row per combination: the variant that checks it and its value on each dimension. */
  readonly rows: readonly { readonly variant: string; readonly values: readonly string[] }[];
  /** What the results mean, in Markdown, for the generated documentation (below the table). */
  readonly explanation?: string;
  /**
   * The same from a Markdown file, its path relative to the model file: long prose reads and
   * diffs better as a page of its own than as a string in the model. `modelcheck docs` includes
   * it after `explanation`, and counts it among the page's inputs.
   */
  readonly explanationFile?: string;
}

/**
 * A whole number the model is built from, like a CONSTANT of a TLA+ spec set in TLC's .cfg:
 * `--param name=value` sets it, and the model's variants are built again from it. For sizes and
 * fault budgets that a user scales without editing the model.
 */
export interface ModelParameter {
  /** What it counts, in plain words; printed with the variant's results. */
  readonly description: string;
  readonly default: number;
  /** The smallest and largest values the model accepts. */
  readonly min: number;
  readonly max: number;
}

export type ParameterValues = Readonly<Record<string, number>>;

/** What a model module exports as its default export. */
export interface Model {
  readonly kind: 'modelcheck.model';
  readonly name: string;
  readonly description?: string;
  // biome-ignore lint/suspicious/noExplicitAny: variants of one model may have different state types
  readonly variants: readonly Variant<any>[];
  /** The parameters the model declares, by name (see `ModelParameter`). */
  readonly parameters?: Readonly<Record<string, ModelParameter>>;
  /** The values its variants were built with: the defaults unless `--param` set others. */
  readonly parameterValues?: ParameterValues;
  /** The model built again with these values; the others keep their defaults. Unchecked: see `configureModel`. */
  readonly withParameters?: (values: ParameterValues) => Model;
  readonly matrices?: readonly VariantMatrix[];
  /**
   * Other documents that carry on from this model (such as another model of the same system),
   * listed in the generated documentation under "See also". Prose only: no verdict belongs here.
   */
  readonly seeAlso?: readonly { readonly title: string; readonly href: string; readonly summary?: string }[];
  /** For a model of a reported bug: which, and which variants are the buggy code and the fix (docs/bugs.md). */
  readonly reproduces?: Reproduction;
}

/** The reported bug a model reproduces, for the table of bugs the generated docs keep (docs/bugs.md). */
export interface Reproduction {
  /** The report, as `owner/repo#number`. */
  readonly issue: string;
  readonly url: string;
  /** How the bug comes about, in one line. */
  readonly mechanism: string;
  /** What of the libraries the model leans on (`finalizers`, `cache lag`, `restarts`, ...). */
  readonly uses: readonly string[];
  /** The variants that are the code with the bug, and those that are its fix. */
  readonly buggy: readonly string[];
  readonly fixed: readonly string[];
}

export function action<S, P = undefined>(name: string, def: Omit<Action<S, P>, 'name'>): Action<S, P> {
  return { name, ...def };
}

export function invariant<S>(name: string, statement: string, holds: (s: S) => boolean, options: PropertyOptions<S> = {}): Invariant<S> {
  return {
    kind: 'invariant',
    name,
    statement,
    holds,
    ...(options.premise ? { premise: options.premise } : {}),
  };
}

export function actionProperty<S>(name: string, statement: string, holds: (s: S, t: S) => boolean): ActionProperty<S> {
  return { kind: 'action', name, statement, holds };
}

export function settledInvariant<S>(
  name: string,
  statement: string,
  holds: (s: S) => boolean,
  options: PropertyOptions<S> = {},
): SettledInvariant<S> {
  return { kind: 'settled', name, statement, holds, ...(options.premise ? { premise: options.premise } : {}) };
}

/**
 * Declares a model: one or more variants checked together. With `parameters`, `variants` may be
 * a function of their values, called with the defaults now and with a user's values later.
 */
export function defineModel<P extends string = string>(def: {
  name: string;
  description?: string;
  parameters?: Readonly<Record<P, ModelParameter>>;
  // biome-ignore lint/suspicious/noExplicitAny: variants of one model may have different state types
  variants: readonly Variant<any>[] | ((values: Readonly<Record<P, number>>) => readonly Variant<any>[]);
  matrices?: readonly VariantMatrix[];
  seeAlso?: Model['seeAlso'];
  reproduces?: Reproduction;
}): Model {
  const { variants, parameters, ...rest } = def;
  if (typeof variants !== 'function' && parameters === undefined) return { kind: 'modelcheck.model', ...rest, variants };
  // Declared parameters are set and checked alike whether or not the variants depend on them.
  const variantsFor = typeof variants === 'function' ? variants : () => variants;
  const declared: Readonly<Record<string, ModelParameter>> = parameters ?? {};
  const defaults = Object.fromEntries(Object.entries(declared).map(([name, p]) => [name, p.default]));
  const build = (values: ParameterValues): Model => ({
    kind: 'modelcheck.model',
    ...rest,
    variants: variantsFor(values as Readonly<Record<P, number>>),
    parameters: declared,
    parameterValues: values,
    withParameters: (given) => build({ ...defaults, ...given }),
  });
  return build(defaults);
}

/** Declares a model with a single variant, named `default`. */
export function defineSingleModel<S>(def: { name: string; description?: string } & Omit<Variant<S>, 'name'>): Model {
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
