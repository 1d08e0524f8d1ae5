// The reachable state graph, kept only when a variant has liveness properties: for each state
// its outgoing steps (target, action, parameter) in compressed sparse rows, plus the truth of
// each liveness predicate in each state. All typed arrays, so a graph of millions of states is
// a few bytes per edge and no objects. Steps from a state to itself are not kept: they are
// stuttering steps, which every state has implicitly.
//
// A step to a state outside the variant's state constraint is kept as an edge to OUTSIDE, once
// per action and parameter of its state: no cycle or path goes through it, but it says that the
// action is enabled there. TLC judges a fair action's ENABLED on the spec, not on the graph the
// constraint cuts (Specifying Systems 14.3.5), and so does the liveness phase (liveness.ts).
//
// During the search the edges are appended to chunks of EDGE_CHUNK, so that the graph holds its
// edges and at most one chunk more, and never two copies at once: doubling one array held up to
// twice the edges, and three times for a moment at each growth (688 MiB for 36.8 million edges
// on the bench's case 9, whose edges take 368). seal() joins them into the flat arrays the
// liveness phase reads, once the search (and its frontier) is over.

/** Grows a typed array to at least `need` elements, keeping its contents. */
function grown<T extends Int32Array | Uint16Array | Uint8Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = make(n);
  b.set(a);
  return b;
}

/** The target of an edge that leaves the state constraint: there is no state to go to. */
export const OUTSIDE = -1;

const EDGE_BITS = 20;
const EDGE_CHUNK = 1 << EDGE_BITS;
const IN_EDGE_CHUNK = EDGE_CHUNK - 1;

export class StateGraph {
  /** `start[s]` to `start[s + 1]` are the edge indices of state `s`. */
  start = new Int32Array(1024);
  /** After seal(): each edge's target state, action and interned parameter (-1: not tracked, for fairness per parameter). */
  target: Int32Array = new Int32Array(0);
  action: Uint16Array = new Uint16Array(0);
  param: Int32Array = new Int32Array(0);
  /** Until seal(): the edges, EDGE_CHUNK to a chunk (the first grows by doubling up to that, for small graphs). */
  private targets: Int32Array[] = [new Int32Array(4096)];
  private actions: Uint16Array[] = [new Uint16Array(4096)];
  private params: Int32Array[] = [new Int32Array(4096)];
  private sealed = false;
  /** Per liveness property, per state: bit 0 is its first predicate, bit 1 its second. */
  labels: Uint8Array[];
  private states = 0;
  private edges = 0;
  private readonly paramIds = new Map<unknown, number>();
  /** The state whose OUTSIDE edges `outsideKeys` lists, as (action, parameter) pairs. */
  private outsideOf = -1;
  private readonly outsideKeys: number[] = [];
  private outsideCount = 0;

  constructor(properties: number) {
    this.labels = Array.from({ length: properties }, () => new Uint8Array(1024));
  }

  get stateCount(): number {
    return this.states;
  }

  get edgeCount(): number {
    return this.edges;
  }

  /** Records a new state's labels; states are added in id order. */
  label(id: number, property: number, bits: number): void {
    const l = grown(this.labels[property], id + 1, (n) => new Uint8Array(n));
    this.labels[property] = l;
    l[id] = bits;
  }

  /** Starts the edge list of state `id`; states are expanded in id order, as BFS does. */
  beginState(id: number): void {
    this.start = grown(this.start, id + 2, (n) => new Int32Array(n));
    this.start[id] = this.edges;
    this.start[id + 1] = this.edges;
    this.states = id + 1;
  }

  addEdge(source: number, target: number, action: number, param: number): void {
    if (target === source) return;
    this.append(target, action, param);
    this.start[source + 1] = this.edges;
  }

  /**
   * A step of state `source` by `action` (with `param`, as addEdge) to a state outside the
   * state constraint: an edge to OUTSIDE, unless the state has one for that action and
   * parameter already (only whether the action is enabled matters).
   */
  addOutside(source: number, action: number, param: number): void {
    const keys = this.outsideKeys;
    if (this.outsideOf !== source) {
      this.outsideOf = source;
      keys.length = 0;
    }
    for (let k = 0; k < keys.length; k += 2) if (keys[k] === action && keys[k + 1] === param) return;
    keys.push(action, param);
    this.outsideCount++;
    this.addEdge(source, OUTSIDE, action, param);
  }

  /** How many OUTSIDE edges the graph holds (none without a state constraint). */
  get outsideEdges(): number {
    return this.outsideCount;
  }

  private append(target: number, action: number, param: number): void {
    const i = this.edges++;
    const c = i >>> EDGE_BITS;
    const k = i & IN_EDGE_CHUNK;
    if (c >= this.targets.length || k === this.targets[c].length) this.growEdges(c);
    this.targets[c][k] = target;
    this.actions[c][k] = action;
    this.params[c][k] = param;
  }

  /** Room for edge `c << EDGE_BITS`...: the first chunk doubles, later ones are new. */
  private growEdges(c: number): void {
    if (this.sealed) throw new Error('state graph: an edge added after seal()');
    if (c === 0) {
      const n = Math.min(2 * this.targets[0].length, EDGE_CHUNK);
      this.targets[0] = grown(this.targets[0], n, (m) => new Int32Array(m));
      this.actions[0] = grown(this.actions[0], n, (m) => new Uint16Array(m));
      this.params[0] = grown(this.params[0], n, (m) => new Int32Array(m));
      return;
    }
    this.targets.push(new Int32Array(EDGE_CHUNK));
    this.actions.push(new Uint16Array(EDGE_CHUNK));
    this.params.push(new Int32Array(EDGE_CHUNK));
  }

  /** The first `n` edges' `which` (targets, actions or params), chunk by chunk (for a checkpoint). */
  *edgeParts(n: number, which: 'targets' | 'actions' | 'params'): Generator<Int32Array | Uint16Array> {
    if (this.sealed) {
      const flat = which === 'targets' ? this.target : which === 'actions' ? this.action : this.param;
      yield flat.subarray(0, n);
      return;
    }
    const chunks = this[which];
    for (let c = 0; c << EDGE_BITS < n; c++) yield chunks[c].subarray(0, Math.min(n - (c << EDGE_BITS), EDGE_CHUNK));
  }

  /** Joins the edges into `target`, `action` and `param`, of their exact length; no edge can be added after. */
  seal(): void {
    if (this.sealed) return;
    const join = <T extends Int32Array | Uint16Array>(chunks: T[], make: (n: number) => T): T => {
      const out = make(this.edges);
      for (let c = 0; c << EDGE_BITS < this.edges; c++) {
        out.set(chunks[c].subarray(0, Math.min(this.edges - (c << EDGE_BITS), EDGE_CHUNK)), c << EDGE_BITS);
        // Let each chunk go as soon as it is copied: one copy of the edges at a time, plus a chunk.
        chunks[c] = make(0);
      }
      return out;
    };
    this.target = join(this.targets, (n) => new Int32Array(n));
    this.action = join(this.actions, (n) => new Uint16Array(n));
    this.param = join(this.params, (n) => new Int32Array(n));
    this.targets = [];
    this.actions = [];
    this.params = [];
    this.sealed = true;
  }

  /** A small integer for a parameter value, equal for equal primitive values or labels. */
  paramId(key: unknown): number {
    let id = this.paramIds.get(key);
    if (id === undefined) {
      id = this.paramIds.size;
      this.paramIds.set(key, id);
    }
    return id;
  }

  /** How many parameters are interned; the first `n` in order of their ids (for a checkpoint). */
  get paramCount(): number {
    return this.paramIds.size;
  }

  paramKeys(n: number): unknown[] {
    return [...this.paramIds.keys()].slice(0, n);
  }

  /**
   * Takes back what a checkpoint saved: the edges of states [0, states), `edges` of them, the
   * labels of every state logged, and the interned parameters in order of their ids.
   */
  restore(start: Int32Array, target: Int32Array, action: Uint16Array, param: Int32Array, labels: Uint8Array[], params: unknown[]): void {
    const states = start.length - 1;
    this.edges = 0;
    this.targets = [new Int32Array(4096)];
    this.actions = [new Uint16Array(4096)];
    this.params = [new Int32Array(4096)];
    // Appended as the search added them (`start` is set after).
    this.outsideCount = 0;
    this.outsideOf = -1;
    for (let e = 0; e < target.length; e++) {
      this.append(target[e], action[e], param[e]);
      if (target[e] === OUTSIDE) this.outsideCount++;
    }
    this.start = grown(new Int32Array(1024), states + 2, (n) => new Int32Array(n));
    this.start.set(start);
    this.labels = labels.map((l) => {
      const own = grown(new Uint8Array(1024), l.length + 1, (n) => new Uint8Array(n));
      own.set(l);
      return own;
    });
    this.states = states;
    this.paramIds.clear();
    for (const k of params) this.paramIds.set(k, this.paramIds.size);
  }

  /** Bytes held by the graph's arrays (for the statistics). */
  get bytes(): number {
    const chunks = (a: (Int32Array | Uint16Array)[]) => a.reduce((n, x) => n + x.byteLength, 0);
    return (
      this.start.byteLength +
      this.target.byteLength +
      this.action.byteLength +
      this.param.byteLength +
      chunks(this.targets) +
      chunks(this.actions) +
      chunks(this.params) +
      this.labels.reduce((a, l) => a + l.byteLength, 0)
    );
  }
}
