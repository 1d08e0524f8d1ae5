// The trace log: for every distinct state, its predecessor, the action that reached it and its
// fingerprint, in chunks of typed arrays. Whole states are not kept. A counterexample is rebuilt as TLC
// does: walk the predecessor links back to an initial state, then replay forward, at each step
// regenerating the recorded action's successors and taking the one whose fingerprint matches.
import type { StepEvent } from '../model.ts';
import type { Fingerprint } from '../values/fingerprint.ts';
import type { Expansion } from './expansion.ts';
import type { SpillFile } from './storage.ts';

export interface TraceStep<S = unknown> {
  /** `null` for the initial state; otherwise the step's label, e.g. `mover.delete(Cluster/c1)`. */
  readonly action: string | null;
  readonly state: S;
  /** What the step did as its action told it (requests and answers, notes); none for the initial state. */
  readonly events?: readonly StepEvent[];
  /** The state as the variant's `view` shows it to readers, when the variant has one. */
  readonly view?: unknown;
}

/** Adds each state's reader's view, for a variant that declares one. */
export function withViews<S>(trace: TraceStep<S>[], view: ((s: S) => unknown) | undefined): TraceStep<S>[] {
  return view ? trace.map((step) => ({ ...step, view: view(step.state) })) : trace;
}

/**
 * withViews for the trace of a model error: a view that throws (the model is broken, after all)
 * leaves the trace as it is, over the raw states, rather than hiding the error being reported.
 */
export function withViewsIfTheyWork<S>(trace: TraceStep<S>[], view: ((s: S) => unknown) | undefined): TraceStep<S>[] {
  try {
    return withViews(trace, view);
  } catch {
    return trace;
  }
}

/** The action of an initial state, in the log's 16-bit action array. */
const NO_ACTION = 0xffff;

/**
 * States per chunk. The log grows a chunk at a time instead of doubling one array, so what it
 * holds is its states plus at most one chunk, not up to twice its states; the first chunk grows
 * by doubling up to this size, so a small model's log stays small.
 */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;
const FIRST_CHUNK = 1024;

/**
 * 14 bytes a state: parent, action (16 bits: a variant has fewer than 65,535 actions) and
 * fingerprint, in chunks of typed arrays. Depths are not stored per state: breadth-first search
 * stores states in order of depth, so the first id of each depth is enough. The fingerprints
 * here are also the visited set's (logIndex.ts), which holds only ids.
 */
export class StateLog {
  private parents: Int32Array[] = [new Int32Array(FIRST_CHUNK)];
  private actions: Uint16Array[] = [new Uint16Array(FIRST_CHUNK)];
  /** (hi, lo) per state, interleaved, so that one lookup touches one cache line. */
  private fps: Uint32Array[] = [new Uint32Array(2 * FIRST_CHUNK)];
  /** levelStart[d - 1]: the first id at depth d. */
  private readonly levelStart: number[] = [];
  private count = 0;
  /**
   * Chunks [0, spilled) have their parents and actions in `file` (spill()), at spilledAt[c];
   * their fingerprints stay, since they are the visited set's. One spilled chunk at a time is
   * read back (`loaded`), for traces, checkpoints and resumes, which read the log in runs.
   */
  private spilled = 0;
  private file: SpillFile | undefined;
  private readonly spilledAt: number[] = [];
  private loaded = -1;
  private loadedParents: Int32Array = new Int32Array(0);
  private loadedActions: Uint16Array = new Uint16Array(0);

  get size(): number {
    return this.count;
  }

  /** Bytes held by the log's arrays. */
  get bytes(): number {
    let n = 8 * this.levelStart.length;
    for (let c = 0; c < this.parents.length; c++) n += this.parents[c].byteLength + this.actions[c].byteLength + this.fps[c].byteLength;
    return n;
  }

  /**
   * Records a new state and returns its id. `parent` and `action` are -1 for an initial state.
   * States come in order of depth (each depth at most one more than the last), as BFS stores them.
   */
  add(parent: number, action: number, fp: Fingerprint, depth: number): number {
    const id = this.count;
    const c = id >>> CHUNK_BITS;
    const i = id & IN_CHUNK;
    if (c === this.parents.length || i === this.parents[c].length) this.grow(c);
    if (depth < this.levelStart.length)
      throw new Error(`state log: a state at depth ${depth} after one at depth ${this.levelStart.length}`);
    while (this.levelStart.length < depth) this.levelStart.push(id);
    this.count++;
    this.parents[c][i] = parent;
    this.actions[c][i] = action === -1 ? NO_ACTION : action;
    const f = this.fps[c];
    f[2 * i] = fp.hi;
    f[2 * i + 1] = fp.lo;
    return id;
  }

  /** The fingerprint's halves of state `id`, for the visited set's probes. */
  hiOf(id: number): number {
    return this.fps[id >>> CHUNK_BITS][2 * (id & IN_CHUNK)];
  }

  loOf(id: number): number {
    return this.fps[id >>> CHUNK_BITS][2 * (id & IN_CHUNK) + 1];
  }

  /** The depth of state `id` (initial states: 1), from the first ids of the depths. */
  depth(id: number): number {
    const starts = this.levelStart;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= id) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The ids from an initial state to `id`, inclusive. */
  pathTo(id: number): number[] {
    const path: number[] = [];
    for (let i = id; i !== -1; i = this.parentOf(i)) path.push(i);
    return path.reverse();
  }

  parentOf(id: number): number {
    const c = id >>> CHUNK_BITS;
    return c < this.spilled ? this.load(c).parents[id & IN_CHUNK] : this.parents[c][id & IN_CHUNK];
  }

  /**
   * Moves the parents and actions of every full chunk not moved yet to a file (`open` makes it
   * when first needed): 6 of the 14 bytes a state, when memory is short. The fingerprints stay.
   */
  spill(open: () => SpillFile): void {
    const full = this.count >>> CHUNK_BITS;
    for (let c = this.spilled; c < full; c++) {
      this.file ??= open();
      const p = this.parents[c];
      const a = this.actions[c];
      this.spilledAt[c] = this.file.append(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
      this.file.append(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      this.parents[c] = new Int32Array(0);
      this.actions[c] = new Uint16Array(0);
    }
    this.spilled = Math.max(this.spilled, full);
  }

  /** How many states have their parents and actions in a file. */
  get spilledStates(): number {
    return this.spilled << CHUNK_BITS;
  }

  /** Spilled chunk `c`'s parents and actions, read back (the last one read is kept). */
  private load(c: number): { parents: Int32Array; actions: Uint16Array } {
    if (this.loaded !== c) {
      const at = this.spilledAt[c];
      const p = this.file!.read(at, 4 * CHUNK);
      const a = this.file!.read(at + 4 * CHUNK, 2 * CHUNK);
      this.loadedParents = new Int32Array(p.buffer, p.byteOffset, CHUNK);
      this.loadedActions = new Uint16Array(a.buffer, a.byteOffset, CHUNK);
      this.loaded = c;
    }
    return { parents: this.loadedParents, actions: this.loadedActions };
  }

  /** The search is over: remove the file of spilled chunks. */
  close(): void {
    this.file?.remove();
  }

  /** The first id of each depth (index 0: depth 1), for a checkpoint. */
  get levelStarts(): readonly number[] {
    return this.levelStart;
  }

  /**
   * The log's first `n` states, chunk by chunk, for a checkpoint: `which` of each chunk (views of
   * the chunks in memory, copies read back of those spilled), in order.
   */
  *chunksOf(n: number, which: 'parents' | 'actions' | 'fps'): Generator<Int32Array | Uint16Array | Uint32Array> {
    for (let c = 0; c << CHUNK_BITS < n; c++) {
      const k = Math.min(n - (c << CHUNK_BITS), CHUNK);
      if (which === 'fps') yield this.fps[c].subarray(0, 2 * k);
      else if (c < this.spilled) yield this.load(c)[which].subarray(0, k);
      else yield this[which][c].subarray(0, k);
    }
  }

  /** Appends states saved by chunksOf() (with their depths' first ids), calling `each` with each new id. */
  restore(
    parents: Int32Array,
    actions: Uint16Array,
    fps: Uint32Array,
    levelStarts: readonly number[],
    each: (id: number, fp: Fingerprint) => void,
  ): void {
    const fp = { hi: 0, lo: 0 };
    let depth = 0;
    for (let i = 0; i < parents.length; i++) {
      while (depth < levelStarts.length && levelStarts[depth] <= i) depth++;
      fp.hi = fps[2 * i];
      fp.lo = fps[2 * i + 1];
      const a = actions[i];
      const id = this.add(parents[i], a === NO_ACTION ? -1 : a, fp, depth);
      each(id, fp);
    }
  }

  actionOf(id: number): number {
    const c = id >>> CHUNK_BITS;
    const a = c < this.spilled ? this.load(c).actions[id & IN_CHUNK] : this.actions[c][id & IN_CHUNK];
    return a === NO_ACTION ? -1 : a;
  }

  fingerprintOf(id: number, out: Fingerprint): void {
    out.hi = this.hiOf(id);
    out.lo = this.loOf(id);
  }

  matches(id: number, fp: Fingerprint): boolean {
    return this.hiOf(id) === fp.hi && this.loOf(id) === fp.lo;
  }

  /** Room for state id `c << CHUNK_BITS | i`: the first chunk doubles, later ones are new. */
  private grow(c: number): void {
    if (c === 0) {
      const n = 2 * this.parents[0].length;
      const p = new Int32Array(n);
      p.set(this.parents[0]);
      const a = new Uint16Array(n);
      a.set(this.actions[0]);
      const f = new Uint32Array(2 * n);
      f.set(this.fps[0]);
      this.parents[0] = p;
      this.actions[0] = a;
      this.fps[0] = f;
      return;
    }
    this.parents.push(new Int32Array(CHUNK));
    this.actions.push(new Uint16Array(CHUNK));
    this.fps.push(new Uint32Array(2 * CHUNK));
  }
}

/** Thrown when replay cannot find a recorded step again: the model is not deterministic. */
export class ReplayError extends Error {}

/**
 * Rebuilds the trace from an initial state to state `id`: the initial state whose fingerprint
 * is the recorded one, then at each step the recorded action's successor whose fingerprint is.
 */
export function rebuildTrace<S>(expansion: Expansion<S>, log: StateLog, id: number): TraceStep<S>[] {
  const path = log.pathTo(id);
  let first: S | undefined;
  expansion.initialStates((s, fp) => {
    if (first === undefined && log.matches(path[0], fp)) first = s;
  });
  if (first === undefined) throw new ReplayError('no initial state matches the recorded one');
  const trace: TraceStep<S>[] = [{ action: null, state: first }];
  let s: S = first;
  for (let k = 1; k < path.length; k++) {
    const ai = log.actionOf(path[k]);
    const step = expansion.replay(s, ai, (f) => log.matches(path[k], f));
    if (!step) {
      throw new ReplayError(`action ${expansion.actions[ai].name} no longer produces the successor it produced during the search`);
    }
    trace.push(step);
    s = step.state;
  }
  return trace;
}
