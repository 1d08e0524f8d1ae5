// Paxos (How to Win a Turing Award) against TLC's figures for the TLA+ examples' MCPaxos with
// MCPaxosTiny.cfg (three acceptors, two values, majority quorums, ballots 0..1): 3,921 distinct
// states, 23,563 generated, depth 17 (tlaplus/Examples specifications/PaxosHowToWinATuringAward/
// manifest.json). The generated count matches because each step is one of TLC's witnesses.
import { describe, expect, it } from 'vitest';
import { checkVariant } from 'modelcheck';
import model from '../fixtures/classic/paxos.ts';
import record from '../fixtures/classic/paxosRecord.ts';

describe('Paxos (TLC figures: MCPaxos, tiny model, in the TLA+ examples)', () => {
  it('reproduces TLC: 3,921 distinct, 23,563 generated, depth 17; Inv holds, no deadlock', () => {
    const r = checkVariant(model.variants[0]);
    expect(r.stats.distinctStates).toBe(3_921);
    expect(r.stats.statesGenerated).toBe(23_563);
    expect(r.stats.depth).toBe(17);
    expect(r.properties.map((p) => `${p.name} ${p.status}`)).toEqual(['Inv holds', 'Deadlock holds']);
  });

  it('with its state declared as a packed record (msgs a set over every message a run can send): the same 3,921 / 23,563 / 17', () => {
    const r = checkVariant(record.variants[0]);
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([3_921, 23_563, 17]);
    expect(r.properties.map((p) => `${p.name} ${p.status}`)).toEqual(['Inv holds', 'Deadlock holds']);
  });
});
