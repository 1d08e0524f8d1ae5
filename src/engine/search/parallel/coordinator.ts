// Breadth-first search with several threads, level by level, that finds exactly what the
// one-thread search (bfs.ts) finds: the same states numbered the same way, the same counts,
// depth, verdicts and traces, whatever the number of threads and however they are scheduled.
//
// Expanders (expander.ts) each expand their share of a level and report every successor as a
// record. The coordinator holds the one visited set and trace log, and merges the reports in
// the order a one-thread search would have met the successors (by parent id, then successor
// index): that order decides which states are new and their ids, where a state bound cuts the
// search, and which violation of each property is the first. A new state is expanded at the
// next level by the thread that generated its first occurrence, so states never cross threads.
// It must be that occurrence, not another thread's equal copy: equal states can differ in what
// the fingerprint ignores (the insertion order of a Map), and a model's params() may list in
// that order; the one-thread search keeps the first occurrence, so must this. While levels are
// small, every thread expands every state (a warm-up, so that all threads hold states before
// the work is split, evenly, at the first large level).
import { noInitialState } from '../../errors.ts';
import type { Fingerprint } from '../../values/fingerprint.ts';
import { CUT, type Ledger } from '../ledger.ts';
import { PREMISE_HELD, VIOLATED } from '../expansion.ts';
import type { VariantResult } from '../../result.ts';
import type { StorageStats } from '../storage.ts';
import { END, END_DEADLOCK, EXCLUDED, ORBIT, RECORD, type ExpanderLink, type Report } from './protocol.ts';
import { ancestryOf } from '../frontierReplay.ts';

/** Levels with fewer states than this, per thread, are expanded by every thread. */
export const WARM_UP_PER_THREAD = 64;

export async function runParallel<S>(
  ledger: Ledger<S>,
  links: readonly ExpanderLink[],
  warmUp = WARM_UP_PER_THREAD,
): Promise<VariantResult<S>> {
  const coordinator = new Coordinator(ledger, links, warmUp);
  try {
    await coordinator.run();
  } finally {
    for (const link of links) link.send({ kind: 'close' });
  }
  // The other threads' frontier storage (thread 0's expander is in this thread, but its own).
  for (const s of coordinator.storage) if (s) ledger.addStorage(s);
  return ledger.finish();
}

class Coordinator<S> {
  private readonly fp: Fingerprint = { hi: 0, lo: 0 };
  /** Per state of the level to expand next (index: id - levelStart): who holds it, at which candidate index. */
  private holder = new Int32Array(0);
  private holderCandidate = new Int32Array(0);
  /** Every thread holds every state of the level, at the same candidate index (the warm-up). */
  private replicated = true;
  private expanded = 0;
  /** Each thread's last report of its frontier storage. */
  readonly storage: (StorageStats | undefined)[] = [];
  /**
   * The threads taking orders: those ready when the search started (this one's own expander
   * always), then every one from the first level split among threads (join).
   */
  private active: ExpanderLink[];

  constructor(
    private readonly ledger: Ledger<S>,
    private readonly links: readonly ExpanderLink[],
    private readonly warmUp: number,
  ) {
    this.active = links.filter((l, w) => w === 0 || l.isReady === undefined || l.isReady());
  }

  async run(): Promise<void> {
    const ledger = this.ledger;
    const resumed = ledger.resume();
    if (resumed?.complete) return;
    let levelStart: number;
    /** The level about to be expanded was checked before a checkpoint. */
    let checked = false;
    if (resumed) {
      // Every thread rebuilds the whole level and holds it, as in the warm-up.
      levelStart = resumed.levelStart;
      const ancestry = ancestryOf(ledger.log, levelStart, ledger.log.size);
      this.fail(await this.round(() => ({ kind: 'resume', ancestry })));
      this.holderCandidate = Int32Array.from({ length: ledger.log.size - levelStart }, (_v, k) => k);
      this.holder = new Int32Array(this.holderCandidate.length);
      this.replicated = true;
      checked = true;
    } else {
      levelStart = await this.initial();
    }

    for (;;) {
      const levelEnd = ledger.log.size;
      const n = levelEnd - levelStart;
      if (n === 0) break;
      const expand = ledger.incomplete === undefined;
      // The first level to split waits for the threads still loading, and brings them in.
      if (expand && this.replicated && n >= this.warmUp * this.links.length && this.active.length < this.links.length) {
        await this.join(levelStart);
      }
      const orders = this.assign(levelStart, n);
      const violated = ledger.variant.properties.flatMap((_p, i) => (ledger.open(i) ? [] : [i]));
      const replicas = this.replicated;
      const reports = await this.round((w) => ({ kind: 'level', assign: orders[w], expand, quiet: replicas && w > 0, violated, checked }));
      checked = false;
      const used = replicas ? reports.slice(0, 1) : reports;
      this.fail(used);
      for (const rep of used) {
        ledger.addPremises(rep.invariantPremise, rep.livenessPremise);
        if (rep.stopped !== undefined) ledger.incomplete ??= rep.stopped;
        const l = rep.labels;
        for (let k = 0; k < l.length; k += 2) ledger.label(l[k], (i) => (l[k + 1] >>> (2 * i)) & 3);
      }
      // Each invariant's violation in the state of least id.
      const found = used.flatMap((rep) => pairs(rep.invariantFindings)).sort((a, b) => a[1] - b[1]);
      for (const [pi, id] of found) ledger.recordState(pi, id);
      // Violations outside the state constraint come after those inside it at their depth (ledger.ts).
      ledger.recordOutside();
      // The level is stored and checked, and its expansion not yet taken in: a level boundary.
      ledger.boundary(levelStart);
      if (!expand) break;
      const cut = this.merge(used);
      this.recordSteps(used, cut);
      ledger.progress(ledger.log.size - levelEnd);
      if (ledger.log.size > levelEnd) ledger.depth++;
      levelStart = levelEnd;
    }
    // (When no initial state is inside the constraint, there was no level to check.)
    ledger.recordOutside();
  }

  /** The initial states, held by every thread; the first id of the level after them. */
  private async initial(): Promise<number> {
    const ledger = this.ledger;
    const init = (await this.round(() => ({ kind: 'init' })))[0];
    this.fail([init]);
    const levelStart = ledger.log.size;
    const candidateOf: number[] = [];
    const fp = this.fp;
    for (let k = 0; k < init.count; k++) {
      const r = init.records;
      fp.hi = r[k * RECORD + 2] >>> 0;
      fp.lo = r[k * RECORD + 3] >>> 0;
      if ((r[k * RECORD + 4] & EXCLUDED) !== 0) {
        ledger.excluded(-1);
        continue;
      }
      const id = ledger.storeInitial(fp, undefined, (r[k * RECORD + 4] >>> 1) & ORBIT);
      if (id === CUT) break;
      if (id >= 0) candidateOf.push(k);
    }
    if (init.count === 0) throw noInitialState(ledger.modelName, ledger.variant.name);
    const f = init.initialFindings ?? [];
    for (let k = 0; k < f.length; k += 3) ledger.recordInitial(f[k], { hi: f[k + 1] >>> 0, lo: f[k + 2] >>> 0 });
    this.holder = new Int32Array(candidateOf.length);
    this.holderCandidate = Int32Array.from(candidateOf);
    ledger.depth = 1;
    return levelStart;
  }

  /**
   * Waits for every thread to be ready, then has each one rebuild the level from `levelStart`
   * by replaying its ancestry (as a resumed search does), each state a candidate at its index
   * in the level: the threads that held it let theirs go, so that all hold it alike.
   */
  private async join(levelStart: number): Promise<void> {
    for (const l of this.links) await l.whenReady?.();
    this.active = [...this.links];
    const ancestry = ancestryOf(this.ledger.log, levelStart, this.ledger.log.size);
    this.fail(await this.round(() => ({ kind: 'resume', ancestry })));
    this.holderCandidate = Int32Array.from({ length: this.ledger.log.size - levelStart }, (_v, k) => k);
    this.holder = new Int32Array(this.holderCandidate.length);
  }

  /** Sends each thread taking orders its order, works on thread 0's here, and waits for every report. */
  private async round(order: (w: number) => Parameters<ExpanderLink['send']>[0]): Promise<Report[]> {
    const links = this.active;
    for (let w = links.length - 1; w >= 0; w--) links[w].send(order(w));
    const reports = await Promise.all(links.map((l) => l.report()));
    reports.forEach((r, w) => {
      this.storage[w] = r.storage;
      // Every round's labels, the initial states' and a rebuilt level's too (the labels noted while
      // initial worlds were built come with the first): a label is a fact of a step some thread took.
      this.ledger.noteCoverage(r.coverage ?? []);
    });
    return reports;
  }

  /** Which thread expands each state of the level: pairs (candidate index, id) per thread. */
  private assign(levelStart: number, n: number): Int32Array[] {
    const threads = this.active.length;
    const lists: number[][] = this.active.map(() => []);
    // (The warm-up's bound counts every thread, those still loading too: join brings them in.)
    if (this.replicated && (n < this.warmUp * this.links.length || threads < this.links.length)) {
      for (let k = 0; k < n; k++) for (const list of lists) list.push(this.holderCandidate[k], levelStart + k);
    } else {
      for (let k = 0; k < n; k++) lists[this.replicated ? k % threads : this.holder[k]].push(this.holderCandidate[k], levelStart + k);
      this.replicated = false;
    }
    return lists.map((l) => Int32Array.from(l));
  }

  /**
   * Merges the level's reports in a one-thread search's order, storing the new states; returns
   * where a state bound cut the search ([parent id, successor index]), or undefined.
   */
  private merge(reports: Report[]): [number, number] | undefined {
    const ledger = this.ledger;
    const fp = this.fp;
    const threads = reports.length;
    const pos = new Int32Array(threads);
    const candidates = new Int32Array(threads);
    const paramPos = new Int32Array(threads);
    const paramKeyed = ledger.expansion.paramKeyed;
    const settled = new Uint8Array(ledger.settledPremise.length);
    const holder: number[] = [];
    const holderCandidate: number[] = [];
    let cut: [number, number] | undefined;
    merge: for (;;) {
      // The thread whose next state has the least id: one-thread order.
      let w = -1;
      let least = Infinity;
      for (let t = 0; t < threads; t++) {
        if (pos[t] >= reports[t].count) continue;
        const id = reports[t].records[pos[t] * RECORD];
        if (id < least) {
          least = id;
          w = t;
        }
      }
      if (w === -1) break;
      const r = reports[w].records;
      let seq = 0;
      ledger.graph?.beginState(r[pos[w] * RECORD]);
      for (;;) {
        const at = pos[w]++ * RECORD;
        const parent = r[at];
        const action = r[at + 1];
        const extra = r[at + 4];
        if (action === END || action === END_DEADLOCK) {
          if (extra === 1) {
            for (let i = 0; i < settled.length; i++)
              settled[i] = (((r[at + 2] >>> i) & 1) * PREMISE_HELD) | (((r[at + 3] >>> i) & 1) * VIOLATED);
          }
          ledger.endState(parent, action === END, extra === 1 ? settled : undefined);
          if ((++this.expanded & 255) === 0 && ledger.mustStop()) break merge;
          break;
        }
        fp.hi = r[at + 2] >>> 0;
        fp.lo = r[at + 3] >>> 0;
        const candidate = extra & 1 ? candidates[w]++ : -1;
        const param = paramKeyed[action] === 1 ? reports[w].params[paramPos[w]++] : undefined;
        if ((extra & EXCLUDED) !== 0) {
          seq++;
          ledger.excluded(action, parent, param);
          continue;
        }
        const thisSeq = seq++;
        const id = ledger.storeSuccessor(parent, action, fp, undefined, param, (extra >>> 1) & ORBIT);
        if (id === CUT) {
          cut = [parent, thisSeq];
          break merge;
        }
        if (id < 0) continue;
        if (candidate === -1) throw new Error(`parallel search: a new state ${fp.hi}:${fp.lo} was not kept by its thread`);
        holder.push(w);
        holderCandidate.push(candidate);
      }
    }
    this.holder = Int32Array.from(holder);
    this.holderCandidate = Int32Array.from(holderCandidate);
    return cut;
  }

  /** Records each step property's first violation, in one-thread order, up to the cut. */
  private recordSteps(reports: Report[], cut: [number, number] | undefined): void {
    const found: number[][] = [];
    for (const rep of reports) {
      const f = rep.stepFindings;
      for (let i = 0; i < f.length; i += 6) found.push(f.slice(i, i + 6));
    }
    found.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    for (const [pi, parent, seq, action, hi, lo] of found) {
      if (cut && (parent > cut[0] || (parent === cut[0] && seq > cut[1]))) continue;
      this.ledger.recordStep(pi, parent, action, { hi: hi >>> 0, lo: lo >>> 0 });
    }
  }

  /** A fault in the model met by a thread: the first in one-thread order, with its trace. */
  private fail(reports: Report[]): void {
    const failures = reports.flatMap((r) => (r.failure ? [r.failure] : []));
    if (failures.length === 0) return;
    failures.sort((a, b) => (a.phase === b.phase ? a.id - b.id : a.phase === 'check' ? -1 : 1));
    throw this.ledger.error(failures[0]);
  }
}

function pairs(list: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.length; i += 2) out.push([list[i], list[i + 1]]);
  return out;
}
