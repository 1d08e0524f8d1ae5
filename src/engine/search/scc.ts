// Strongly connected components by Tarjan's algorithm, written with an explicit stack instead
// of recursion: a recursive version overflows the call stack on paths of a few thousand states,
// and the graphs here have millions. Works on any subset of a StateGraph's states (those whose
// `member` entry equals `token`), so the same arrays serve the first pass over the whole graph
// and the later passes over parts of one component that fairness checking needs.
import type { StateGraph } from './stateGraph.ts';

export interface Components {
  /** The states of all components, one component after the other. */
  readonly nodes: Int32Array;
  /** Component `i` is `nodes[start[i]]` to `nodes[start[i + 1] - 1]`. */
  readonly start: Int32Array;
  readonly count: number;
}

export class SccFinder {
  private readonly index: Int32Array;
  private readonly low: Int32Array;
  private readonly onStack: Uint8Array;
  private readonly stack: Int32Array;
  private readonly callNode: Int32Array;
  private readonly callEdge: Int32Array;

  constructor(private readonly graph: StateGraph) {
    const n = graph.stateCount;
    this.index = new Int32Array(n).fill(-1);
    this.low = new Int32Array(n);
    this.onStack = new Uint8Array(n);
    this.stack = new Int32Array(n);
    this.callNode = new Int32Array(n);
    this.callEdge = new Int32Array(n);
  }

  /** The components of the subgraph induced by `nodes`, which must all have member === token. */
  run(nodes: ArrayLike<number>, member: Int32Array, token: number): Components {
    const { index, low, onStack, stack, callNode, callEdge } = this;
    const { start, target } = this.graph;
    const outNodes = new Int32Array(nodes.length);
    const outStart: number[] = [0];
    let written = 0;
    let counter = 0;
    let sp = 0;
    for (let r = 0; r < nodes.length; r++) {
      const root = nodes[r];
      if (index[root] !== -1) continue;
      let cs = 0;
      index[root] = low[root] = counter++;
      stack[sp++] = root;
      onStack[root] = 1;
      callNode[cs] = root;
      callEdge[cs] = start[root];
      cs++;
      while (cs > 0) {
        const v = callNode[cs - 1];
        let e = callEdge[cs - 1];
        const end = start[v + 1];
        let descended = false;
        while (e < end) {
          const w = target[e++];
          // An edge to OUTSIDE (-1, a step out of the state constraint) leads to no state.
          if (w < 0 || member[w] !== token) continue;
          if (index[w] === -1) {
            callEdge[cs - 1] = e;
            index[w] = low[w] = counter++;
            stack[sp++] = w;
            onStack[w] = 1;
            callNode[cs] = w;
            callEdge[cs] = start[w];
            cs++;
            descended = true;
            break;
          }
          if (onStack[w] === 1 && index[w] < low[v]) low[v] = index[w];
        }
        if (descended) continue;
        if (low[v] === index[v]) {
          let w: number;
          do {
            w = stack[--sp];
            onStack[w] = 0;
            outNodes[written++] = w;
          } while (w !== v);
          outStart.push(written);
        }
        cs--;
        if (cs > 0) {
          const u = callNode[cs - 1];
          if (low[v] < low[u]) low[u] = low[v];
        }
      }
    }
    // Leave the arrays as found, for the next run.
    for (let r = 0; r < nodes.length; r++) index[nodes[r]] = -1;
    return { nodes: outNodes, start: Int32Array.from(outStart), count: outStart.length - 1 };
  }
}
