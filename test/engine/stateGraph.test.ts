// The state graph keeps its edges in chunks during the search and joins them for the liveness
// phase (src/engine/search/stateGraph.ts): what is joined must be every edge, in order, across chunks.
import { describe, expect, it } from 'vitest';
import { StateGraph } from '../../src/engine/search/stateGraph.ts';

describe('the state graph', () => {
  it('keeps every edge across chunk boundaries (2^20 edges a chunk), in order, and joins them exactly', () => {
    const g = new StateGraph(1);
    const states = 3000;
    const perState = 400; // 1,200,000 edges: two chunks, the second partly full
    let n = 0;
    for (let s = 0; s < states; s++) {
      g.beginState(s);
      for (let k = 0; k < perState; k++) {
        g.addEdge(s, (s * 7 + k + 1) % states === s ? (s + 1) % states : (s * 7 + k + 1) % states, k % 5, n % 11);
        n++;
      }
    }
    expect(g.edgeCount).toBe(n);
    const parts = [...g.edgeParts(n, 'targets')].map((p) => p.length);
    expect(parts).toEqual([1 << 20, n - (1 << 20)]);
    g.seal();
    expect([g.target.length, g.action.length, g.param.length]).toEqual([n, n, n]);
    let e = 0;
    for (let s = 0; s < states; s++) {
      expect([g.start[s], g.start[s + 1]]).toEqual([s * perState, (s + 1) * perState]);
      for (let k = 0; k < perState; k++, e++) {
        const t = (s * 7 + k + 1) % states;
        if (g.target[e] !== (t === s ? (s + 1) % states : t) || g.action[e] !== k % 5 || g.param[e] !== e % 11) {
          throw new Error(`edge ${e} of state ${s} is wrong`);
        }
      }
    }
    expect(() => g.addEdge(0, 1, 0, 0)).toThrow(/after seal/);
  });
});
