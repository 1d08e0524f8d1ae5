// What partial-order reduction saves on the classic models, with the best footprints we could
// write (issue 45, part 3; results in bench/README.md). Each model is searched whole
// (--no-por) and reduced, taking turns, and the states, the states expanded with fewer steps
// than they have, and the time of each are printed.
//
//   node --import tsx bench/porClassic.ts [twoPhase N] [twoPhaseBlind N] [peterson] [paxos]
import { checkVariant, type Footprint, type Variant } from '../src/index.ts';
import { twoPhase } from '../test/fixtures/classic/twoPhase.ts';

/** TwoPhase with footprints: per resource manager, its state, its Prepared message and its place in tmPrepared. */
function twoPhaseReduced(n: number, blind: boolean): Variant<unknown> {
  const v = twoPhase(n).variants[0] as Variant<any>;
  const RM = Array.from({ length: n }, (_, i) => `r${i + 1}`);
  const fp: Record<string, (rm: string) => Footprint> = {
    TMCommit: () => ({ reads: ['tmState', 'tmPrepared/*'], writes: ['tmState', 'msgs/Commit'] }),
    TMAbort: () => ({ reads: ['tmState'], writes: ['tmState', 'msgs/Abort'] }),
    TMRcvPrepared: (rm) => ({ reads: ['tmState', `msgs/Prepared ${rm}`, `tmPrepared/${rm}`], writes: [`tmPrepared/${rm}`] }),
    RMPrepare: (rm) => ({ reads: [`rmState/${rm}`], writes: [`rmState/${rm}`, `msgs/Prepared ${rm}`] }),
    RMChooseToAbort: (rm) => ({ reads: [`rmState/${rm}`], writes: [`rmState/${rm}`] }),
    RMRcvCommitMsg: (rm) => ({ reads: ['msgs/Commit', `rmState/${rm}`], writes: [`rmState/${rm}`] }),
    RMRcvAbortMsg: (rm) => ({ reads: ['msgs/Abort', `rmState/${rm}`], writes: [`rmState/${rm}`] }),
  };
  return {
    ...v,
    actions: v.actions.map((a: any) => ({
      ...a,
      domain: () => (a.params ? RM : [undefined]),
      footprint: (p: string) => fp[a.name](p),
    })),
    properties: v.properties.map((p: any) => ({ ...p, reads: blind ? [] : RM.map((rm) => `rmState/${rm}`) })),
    ...(process.env.NO_DEADLOCK ? { checkDeadlock: false } : {}),
  };
}

function measure(name: string, v: Variant<unknown>): void {
  for (const por of [false, true, false, true]) {
    const t = performance.now();
    const r = checkVariant(v, { partialOrder: por });
    const s = (performance.now() - t) / 1000;
    console.log(
      `${name}\t${por ? 'reduced' : 'whole'}\t${r.stats.distinctStates}\t${r.stats.statesGenerated}\t${r.stats.reduction?.reducedStates ?? '-'}\t${s.toFixed(2)} s\t${r.verdict}`,
    );
  }
}

const [which = 'twoPhase', arg = '5'] = process.argv.slice(2);
if (which === 'twoPhase' || which === 'twoPhaseBlind') measure(`${which} ${arg}`, twoPhaseReduced(Number(arg), which === 'twoPhaseBlind'));
