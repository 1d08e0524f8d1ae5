// Breadth-first search over every reachable state of one variant, in one thread. Level by
// level, so the first violation found of each property has a shortest trace. The loop follows
// TLC's worker: take a state, generate its successors (expansion.ts), test-and-insert each one
// (ledger.ts), check the new ones' invariants, detect deadlock and settled states. Only the
// frontier holds whole states; everything else is fingerprints and parent links (trace.ts),
// and traces are rebuilt by replay at the end.
import type { Variant } from '../model.ts';
import type { Fingerprint } from '../values/fingerprint.ts';
import { HAS_SUCCESSOR, SETTLED, STOPPED, type Visitor } from './expansion.ts';
import { CUT, Ledger, type SearchOptions } from './ledger.ts';
import { noInitialState } from '../errors.ts';
import { StateCodec } from '../values/stateCodec.ts';
import { StateQueue } from './stateQueue.ts';
import { ancestryOf, replayAncestry } from './frontierReplay.ts';
import type { VariantResult } from '../result.ts';

export { describeFairness, validateVariant, type Progress, type SearchOptions } from './ledger.ts';

export function checkVariant<S>(variant: Variant<S>, options: SearchOptions = {}): VariantResult<S> {
  const ledger = new Ledger(variant, options);
  return ledger.guard(() => search(ledger));
}

/** The one-thread search, on `ledger`'s books; returns its result. */
export function search<S>(ledger: Ledger<S>): VariantResult<S> {
  const x = ledger.expansion;
  const sym = x.symmetric;
  const codec = new StateCodec();
  let next = new StateQueue<S>(codec, ledger.storage);
  const own: Fingerprint = { hi: 0, lo: 0 };
  /** The state being expanded. */
  let id = -1;
  const visitor: Visitor<S> = {
    wants: (pi) => ledger.open(pi),
    stateViolated: (pi, at) => ledger.recordState(pi, at),
    stepViolated: (pi, _seq, ai, fp) => ledger.recordStep(pi, id, ai, fp),
    excluded: (ai, p) => ledger.excluded(ai, id, ledger.graph && x.paramKeyed[ai] === 1 ? x.paramKey(ai, p) : undefined),
    successor(ai, p, t, fp) {
      const param = ledger.graph && x.paramKeyed[ai] === 1 ? x.paramKey(ai, p) : undefined;
      const tid = ledger.storeSuccessor(id, ai, fp, t, param, sym?.orbit ?? 1);
      if (tid === CUT) return false;
      if (tid < 0) return true;
      x.keep();
      store(t, tid, x.actions[ai].name, id);
      return true;
    },
  };
  /** Stores a new state: its invariants, its labels, into the next level (`from`: the state whose step made it, as for MC102). */
  const store = (s: S, sid: number, subject: string, from: number): void => {
    x.checkState(s, sid, visitor);
    if (ledger.graph) ledger.label(sid, (i) => x.labels[i]);
    x.hold(next, s, subject, from);
  };

  const resumed = ledger.resume();
  if (resumed?.complete) return ledger.finish();
  let levelStart = 0;
  if (resumed) {
    // The level to expand, rebuilt by replay: its states are stored and checked already.
    levelStart = resumed.levelStart;
    replayAncestry(x, ancestryOf(ledger.log, levelStart, ledger.log.size), (sid, s) => {
      x.hold(next, s, 'resume', sid);
    });
  } else {
    x.initialStates((s, fp) => {
      if (ledger.incomplete) return;
      if (!x.admitted(s, -1, 'init')) {
        ledger.excluded(-1);
        x.excludedViolations(s, -1, visitor, (pi) => ledger.recordInitial(pi, fp));
        return;
      }
      const sid = ledger.storeInitial(fp, s, sym?.orbit ?? 1);
      if (sid < 0) return;
      x.keep();
      store(s, sid, 'init', -1);
    });
    if (ledger.generated === 0) throw noInitialState(ledger.modelName, ledger.variant.name);
    // Violations outside the state constraint wait for those inside it at their depth (ledger.ts).
    ledger.recordOutside();
    ledger.depth = 1;
  }

  let expanded = 0;
  levels: while (next.size > 0 && !ledger.incomplete) {
    ledger.addPremises(x.invariantPremise, x.livenessPremise);
    x.invariantPremise.fill(0);
    x.livenessPremise.fill(0);
    ledger.boundary(levelStart);
    const frontier = next;
    next = new StateQueue<S>(codec, ledger.storage);
    const n = frontier.size;
    for (let k = 0; k < n; k++) {
      const s = frontier.take();
      if (frontier.decoded) x.prime(s);
      id = levelStart + k;
      ledger.graph?.beginState(id);
      ledger.log.fingerprintOf(id, own);
      const end = x.expand(s, id, own.hi, own.lo, visitor);
      if (end === STOPPED) break levels;
      ledger.endState(id, (end & HAS_SUCCESSOR) !== 0, end & SETTLED ? x.settled : undefined);
      // Counted over the whole search, not per level: a model may have one state per level.
      if ((++expanded & 255) === 0 && ledger.mustStop()) break levels;
      if ((expanded & 1023) === 0) ledger.progress(n - k + next.size);
    }
    ledger.recordOutside();
    levelStart += n;
    if (next.size > 0) ledger.depth++;
  }
  ledger.recordOutside();
  ledger.addPremises(x.invariantPremise, x.livenessPremise);
  return ledger.finish();
}
