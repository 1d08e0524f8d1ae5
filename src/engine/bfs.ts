// Breadth-first search over every reachable state of one variant. Level by level, so the first
// violation found of each property has a shortest trace. The loop follows TLC's worker:
// take a state, generate its successors, test-and-insert each fingerprint, check properties,
// detect deadlock and settled states. Only the frontier holds whole states; everything else is
// fingerprints and parent links (trace.ts), and traces are rebuilt by replay at the end.
import type { Action, Property, PropertyKind, Variant } from './model.ts';
import { DEADLOCK } from './model.ts';
import { Fingerprinter, type Fingerprint } from './fingerprint.ts';
import { NotAStateValue } from './encoding.ts';
import { SeenSet, NEW } from './seenSet.ts';
import { StateLog, rebuildTrace, replayStep, ReplayError, type TraceStep } from './trace.ts';
import { ModelError } from './errors.ts';
import type {
  IncompleteReason,
  PropertyResult,
  Stats,
  VariantResult,
  Violation,
} from './result.ts';

export interface SearchOptions {
  /** Stop, incomplete, rather than store more distinct states than this. */
  readonly maxStates?: number;
  /** Stop, incomplete, rather than explore states deeper than this (initial states: 1). */
  readonly maxDepth?: number;
  /** The model's name, for results and error messages. */
  readonly modelName?: string;
  /** Called about once a second with the search's progress. */
  readonly onProgress?: (p: Progress) => void;
}

export interface Progress {
  readonly variant: string;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly queue: number;
  readonly seconds: number;
}

/** Where a property was first broken: a state, or a step out of a state. */
interface Finding {
  readonly property: { readonly name: string; readonly kind: PropertyKind; readonly statement: string };
  readonly stateId: number;
  readonly step?: { readonly action: number; readonly target: Fingerprint };
}

const DEADLOCK_PROPERTY = {
  kind: 'deadlock' as const,
  name: DEADLOCK,
  statement: 'Every reachable state has at least one successor.',
};

const NO_PARAMS: readonly undefined[] = [undefined];

export function checkVariant<S>(variant: Variant<S>, options: SearchOptions = {}): VariantResult<S> {
  return new Search(variant, options).run();
}

class Search<S> {
  private readonly fingerprinter = new Fingerprinter();
  private readonly seen = new SeenSet();
  private readonly log = new StateLog();
  private readonly findings = new Map<string, Finding>();
  private readonly invariants: Property<S>[];
  private readonly stepProperties: Property<S>[];
  private readonly settledProperties: Property<S>[];
  private readonly enabledCount: number[];
  private readonly newCount: number[];
  private readonly checkDeadlock: boolean;
  private readonly modelName: string;
  private generated = 0;
  private depth = 0;
  private incomplete: IncompleteReason | undefined;

  constructor(
    private readonly variant: Variant<S>,
    private readonly options: SearchOptions,
  ) {
    this.modelName = options.modelName ?? '(model)';
    validateVariant(variant, this.modelName);
    this.invariants = variant.properties.filter((p) => p.kind === 'invariant');
    this.stepProperties = variant.properties.filter((p) => p.kind === 'action');
    this.settledProperties = variant.properties.filter((p) => p.kind === 'settled');
    this.enabledCount = variant.actions.map(() => 0);
    this.newCount = variant.actions.map(() => 0);
    this.checkDeadlock = variant.checkDeadlock ?? true;
  }

  run(): VariantResult<S> {
    const started = performance.now();
    let lastProgress = started;
    const fp: Fingerprint = { hi: 0, lo: 0 };
    const sourceFp: Fingerprint = { hi: 0, lo: 0 };
    let frontier: S[] = [];
    let frontierIds: number[] = [];

    const maxStates = this.options.maxStates ?? Infinity;
    const maxDepth = this.options.maxDepth ?? Infinity;
    for (const s of this.initialStates()) {
      this.generated++;
      this.fingerprint(s, fp, 'init', -1);
      if (this.seen.get(fp.hi, fp.lo) !== -1) continue;
      if (this.log.size >= maxStates) {
        this.incomplete = 'maxStates';
        break;
      }
      this.seen.put(fp.hi, fp.lo, this.log.size);
      this.fingerprinter.keep();
      const id = this.log.add(-1, -1, fp, 1);
      this.checkInvariants(s, id);
      frontier.push(s);
      frontierIds.push(id);
    }
    if (frontier.length === 0) {
      throw new ModelError('MC100_NO_INIT_STATE', `variant ${this.variant.name} has no initial state`, {
        model: this.modelName,
        variant: this.variant.name,
        hint: 'init() must yield at least one state',
      });
    }
    this.depth = 1;

    const actions = this.variant.actions;
    search: while (frontier.length > 0 && !this.incomplete) {
      // States at the depth limit are expanded, so that deadlocks, settled states and steps are
      // checked there, but their new successors are not stored: finding one makes the search
      // incomplete. A graph exactly maxDepth deep is searched completely.
      const atDepthLimit = this.depth >= maxDepth;
      const next: S[] = [];
      const nextIds: number[] = [];
      for (let k = 0; k < frontier.length; k++) {
        const s = frontier[k];
        const id = frontierIds[k];
        this.log.fingerprintOf(id, sourceFp);
        let hasSuccessor = false;
        let settled = true;
        for (let ai = 0; ai < actions.length; ai++) {
          const a = actions[ai] as Action<S, unknown>;
          for (const p of this.paramsOf(a, s, id)) {
            const t = this.nextOf(a, s, p, id);
            if (t === undefined) continue;
            this.generated++;
            this.enabledCount[ai]++;
            hasSuccessor = true;
            this.fingerprint(t, fp, a.name, id);
            if (fp.hi !== sourceFp.hi || fp.lo !== sourceFp.lo) settled = false;
            if (this.stepProperties.length > 0) this.checkStep(s, t, id, ai, fp);
            if (atDepthLimit || this.log.size >= maxStates) {
              // Near a limit, look before inserting: a state over the limit is not stored.
              if (this.seen.get(fp.hi, fp.lo) !== -1) continue;
              if (atDepthLimit) {
                this.incomplete = 'maxDepth';
                continue;
              }
              this.incomplete = 'maxStates';
              break search;
            }
            if (this.seen.put(fp.hi, fp.lo, this.log.size) !== NEW) continue;
            this.fingerprinter.keep();
            const tid = this.log.add(id, ai, fp, this.depth + 1);
            this.newCount[ai]++;
            this.checkInvariants(t, tid);
            next.push(t);
            nextIds.push(tid);
          }
        }
        if (!hasSuccessor && this.checkDeadlock) this.record(DEADLOCK_PROPERTY, id);
        if (settled) this.checkSettled(s, id);
        if (this.options.onProgress && (k & 1023) === 0) {
          const now = performance.now();
          if (now - lastProgress > 1000) {
            lastProgress = now;
            this.options.onProgress({
              variant: this.variant.name,
              distinctStates: this.log.size,
              statesGenerated: this.generated,
              depth: this.depth,
              queue: frontier.length - k + next.length,
              seconds: (now - started) / 1000,
            });
          }
        }
      }
      frontier = next;
      frontierIds = nextIds;
      if (frontier.length > 0) this.depth++;
    }
    // BFS stores states in order of depth, so the last one stored is the deepest.
    this.depth = this.log.depth(this.log.size - 1);

    const seconds = (performance.now() - started) / 1000;
    return this.result(seconds);
  }

  private *initialStates(): Iterable<S> {
    let iterator: Iterator<S>;
    try {
      iterator = this.variant.init()[Symbol.iterator]();
    } catch (cause) {
      throw this.threw('MC101_ACTION_THREW', 'init', cause, -1);
    }
    for (;;) {
      let r: IteratorResult<S>;
      try {
        r = iterator.next();
      } catch (cause) {
        throw this.threw('MC101_ACTION_THREW', 'init', cause, -1);
      }
      if (r.done) return;
      yield r.value;
    }
  }

  private paramsOf(a: Action<S, unknown>, s: S, id: number): Iterable<unknown> {
    if (!a.params) return NO_PARAMS;
    try {
      // Materialized so that a throwing iterator is caught here, with the action's name.
      const ps = a.params(s);
      return Array.isArray(ps) ? ps : Array.from(ps);
    } catch (cause) {
      throw this.threw('MC101_ACTION_THREW', a.name, cause, id);
    }
  }

  private nextOf(a: Action<S, unknown>, s: S, p: unknown, id: number): S | undefined {
    try {
      return a.next(s, p);
    } catch (cause) {
      throw this.threw('MC101_ACTION_THREW', a.name, cause, id);
    }
  }

  private fingerprint(s: S, out: Fingerprint, subject: string, sourceId: number): void {
    try {
      this.fingerprinter.of(s, out);
    } catch (cause) {
      if (cause instanceof NotAStateValue) {
        const where = subject === 'init' ? 'an initial state' : `the successor produced by ${subject}`;
        throw new ModelError(
          'MC102_NOT_A_STATE_VALUE',
          `${where} holds ${cause.message}; states must be immutable.js values and primitives`,
          this.details(subject, sourceId, cause),
        );
      }
      throw cause;
    }
  }

  private holds(p: Property<S>, id: number, s: S, t?: S): boolean {
    let r: unknown;
    try {
      r = p.kind === 'action' ? p.holds(s, t as S) : p.holds(s);
    } catch (cause) {
      throw this.threw('MC103_PREDICATE_THREW', p.name, cause, id);
    }
    if (typeof r !== 'boolean') {
      throw new ModelError(
        'MC104_NOT_A_BOOLEAN',
        `property ${p.name} returned ${r === null ? 'null' : typeof r}, not a boolean`,
        this.details(p.name, id),
      );
    }
    return r;
  }

  private checkInvariants(s: S, id: number): void {
    for (const p of this.invariants) {
      if (!this.findings.has(p.name) && !this.holds(p, id, s)) this.record(p, id);
    }
  }

  private checkSettled(s: S, id: number): void {
    for (const p of this.settledProperties) {
      if (!this.findings.has(p.name) && !this.holds(p, id, s)) this.record(p, id);
    }
  }

  private checkStep(s: S, t: S, id: number, action: number, target: Fingerprint): void {
    for (const p of this.stepProperties) {
      if (this.findings.has(p.name) || this.holds(p, id, s, t)) continue;
      this.findings.set(p.name, {
        property: p,
        stateId: id,
        step: { action, target: { hi: target.hi, lo: target.lo } },
      });
    }
  }

  private record(p: Finding['property'], id: number): void {
    if (!this.findings.has(p.name)) this.findings.set(p.name, { property: p, stateId: id });
  }

  private threw(code: 'MC101_ACTION_THREW' | 'MC103_PREDICATE_THREW', subject: string, cause: unknown, id: number) {
    const what = code === 'MC101_ACTION_THREW' ? (subject === 'init' ? 'init()' : `action ${subject}`) : `property ${subject}`;
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    return new ModelError(code, `${what} threw ${message}`, this.details(subject, id, cause));
  }

  private details(subject: string, id: number, cause?: unknown) {
    let trace: TraceStep[] | undefined;
    if (id >= 0) {
      try {
        trace = rebuildTrace(this.variant, this.log, id, this.fingerprinter) as TraceStep[];
      } catch {
        trace = undefined; // the trace is a courtesy; the error itself is what matters
      }
    }
    return {
      model: this.modelName,
      variant: this.variant.name,
      subject,
      trace,
      depth: id >= 0 ? this.log.depth(id) : undefined,
      cause,
    };
  }

  private traceOf(f: Finding): TraceStep<S>[] {
    try {
      const trace = rebuildTrace(this.variant, this.log, f.stateId, this.fingerprinter);
      if (f.step) {
        const { action, target } = f.step;
        const a = this.variant.actions[action] as Action<S, unknown>;
        const last = trace[trace.length - 1].state;
        const step = replayStep(a, last, (fp) => fp.hi === target.hi && fp.lo === target.lo, this.fingerprinter);
        if (!step) throw new ReplayError(`action ${a.name} no longer produces the step it produced during the search`);
        trace.push(step);
      }
      return trace;
    } catch (cause) {
      if (!(cause instanceof ReplayError)) throw cause;
      throw new ModelError('MC107_NOT_DETERMINISTIC', `cannot rebuild the trace for ${f.property.name}: ${cause.message}`, {
        model: this.modelName,
        variant: this.variant.name,
        subject: f.property.name,
        hint: 'init(), params() and next() must return the same values every time they are called with the same state',
      });
    }
  }

  private result(seconds: number): VariantResult<S> {
    const v = this.variant;
    const expected = v.expectedViolations ?? [];
    const all: { name: string; kind: Property<S>['kind'] | 'deadlock'; statement: string }[] = [
      ...v.properties,
    ];
    if (this.checkDeadlock) all.push(DEADLOCK_PROPERTY);
    const properties: PropertyResult[] = all.map((p) => ({
      name: p.name,
      kind: p.kind,
      statement: p.statement,
      status: this.findings.has(p.name) ? 'violated' : this.incomplete ? 'unknown' : 'holds',
      expectedViolated: expected.includes(p.name),
    }));
    const violations: Violation<S>[] = all
      .filter((p) => this.findings.has(p.name))
      .map((p) => {
        const f = this.findings.get(p.name)!;
        return { property: p.name, kind: p.kind, statement: p.statement, trace: this.traceOf(f) };
      });
    const violated = new Set(violations.map((x) => x.property));
    const metExpectations =
      !this.incomplete && violated.size === expected.length && expected.every((n) => violated.has(n));
    const n = this.log.size;
    const g = this.generated;
    const stats: Stats = {
      distinctStates: n,
      statesGenerated: g,
      depth: this.depth,
      seconds,
      statesPerSecond: seconds > 0 ? n / seconds : n,
      collisionProbability: (n * (g - n)) / 2 ** 64,
      coverage: v.actions.map((a, i) => ({
        action: a.name,
        enabled: this.enabledCount[i],
        newStates: this.newCount[i],
      })),
    };
    return {
      model: this.modelName,
      variant: v.name,
      description: v.description,
      assumptions: v.assumptions ?? [],
      verdict: violations.length > 0 ? 'violated' : this.incomplete ? 'incomplete' : 'proved',
      incompleteReason: this.incomplete,
      expectedViolations: expected,
      metExpectations,
      properties,
      violations,
      stats,
      bounds: { maxStates: this.options.maxStates, maxDepth: this.options.maxDepth },
      checkedDeadlock: this.checkDeadlock,
    };
  }
}

/** Rejects duplicate names and expectations that name no property, before searching. */
function validateVariant<S>(v: Variant<S>, model: string): void {
  const dup = (names: string[], what: string) => {
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n)) {
        throw new ModelError('MC105_DUPLICATE_NAME', `two ${what} of variant ${v.name} are named ${n}`, {
          model,
          variant: v.name,
          subject: n,
        });
      }
      seen.add(n);
    }
  };
  dup(v.actions.map((a) => a.name), 'actions');
  dup([...v.properties.map((p) => p.name), ...(v.checkDeadlock ?? true ? [DEADLOCK] : [])], 'properties');
  const known = new Set(v.properties.map((p) => p.name));
  if (v.checkDeadlock ?? true) known.add(DEADLOCK);
  for (const e of v.expectedViolations ?? []) {
    if (!known.has(e)) {
      throw new ModelError(
        'MC106_UNKNOWN_EXPECTATION',
        `variant ${v.name} expects ${e} to be violated, but has no property of that name`,
        { model, variant: v.name, subject: e, hint: `known: ${[...known].join(', ')}` },
      );
    }
  }
}
