// The reachable state graph, kept only when a variant has liveness properties: for each state
// its outgoing steps (target, action, parameter) in compressed sparse rows, plus the truth of
// each liveness predicate in each state. All typed arrays, so a graph of millions of states is
// a few bytes per edge and no objects. Steps from a state to itself are not kept: they are
// stuttering steps, which every state has implicitly.

/** Grows a typed array to at least `need` elements, keeping its contents. */
function grown<T extends Int32Array | Uint16Array | Uint8Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = make(n);
  b.set(a);
  return b;
}

export class StateGraph {
  /** `start[s]` to `start[s + 1]` are the edge indices of state `s`. */
  start = new Int32Array(1024);
  target = new Int32Array(4096);
  action = new Uint16Array(4096);
  /** The interned parameter of each edge, for fairness per parameter (-1: not tracked). */
  param = new Int32Array(4096);
  /** Per liveness property, per state: bit 0 is its first predicate, bit 1 its second. */
  labels: Uint8Array[];
  private states = 0;
  private edges = 0;
  private readonly paramIds = new Map<unknown, number>();

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
    const i = this.edges++;
    if (i >= this.target.length) {
      this.target = grown(this.target, i + 1, (n) => new Int32Array(n));
      this.action = grown(this.action, i + 1, (n) => new Uint16Array(n));
      this.param = grown(this.param, i + 1, (n) => new Int32Array(n));
    }
    this.target[i] = target;
    this.action[i] = action;
    this.param[i] = param;
    this.start[source + 1] = this.edges;
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
    const edges = target.length;
    this.start = grown(new Int32Array(1024), states + 2, (n) => new Int32Array(n));
    this.start.set(start);
    this.target = grown(new Int32Array(4096), edges + 1, (n) => new Int32Array(n));
    this.target.set(target);
    this.action = grown(new Uint16Array(4096), edges + 1, (n) => new Uint16Array(n));
    this.action.set(action);
    this.param = grown(new Int32Array(4096), edges + 1, (n) => new Int32Array(n));
    this.param.set(param);
    this.labels = labels.map((l) => {
      const own = grown(new Uint8Array(1024), l.length + 1, (n) => new Uint8Array(n));
      own.set(l);
      return own;
    });
    this.states = states;
    this.edges = edges;
    this.paramIds.clear();
    for (const k of params) this.paramIds.set(k, this.paramIds.size);
  }

  /** Bytes held by the graph's arrays (for the statistics). */
  get bytes(): number {
    return (
      this.start.byteLength +
      this.target.byteLength +
      this.action.byteLength +
      this.param.byteLength +
      this.labels.reduce((a, l) => a + l.byteLength, 0)
    );
  }
}
