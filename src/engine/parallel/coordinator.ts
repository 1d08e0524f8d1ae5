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
import { ModelError, noInitialState } from '../errors.ts';
import { NEW } from '../seenSet.ts';
import type { Fingerprint } from '../fingerprint.ts';
import type { Search } from '../bfs.ts';
import type { VariantResult } from '../result.ts';
import { StopPoll } from '../stopPoll.ts';
import { DEADLOCK_PROPERTY } from '../modelCalls.ts';
import { END, END_DEADLOCK, RECORD, type ExpanderLink, type Report } from './protocol.ts';

/** Levels with fewer states than this, per thread, are expanded by every thread. */
export const WARM_UP_PER_THREAD = 64;

export async function runParallel<S>(
  search: Search<S>,
  links: readonly ExpanderLink[],
  warmUp = WARM_UP_PER_THREAD,
): Promise<VariantResult<S>> {
  return new Coordinator(search, links, warmUp).run();
}

class Coordinator<S> {
  private readonly fp: Fingerprint = { hi: 0, lo: 0 };
  /** Per state of the level to expand next (index: id - levelStart): who holds it, at which candidate index. */
  private holder = new Int32Array(0);
  private holderCandidate = new Int32Array(0);
  /** Every thread holds every state of the level, at the same candidate index (the warm-up). */
  private replicated = true;
  private expanded = 0;
  private lastProgress = 0;
  private started = 0;

  constructor(
    private readonly search: Search<S>,
    private readonly links: readonly ExpanderLink[],
    private readonly warmUp: number,
  ) {}

  async run(): Promise<VariantResult<S>> {
    const search = this.search;
    this.started = performance.now();
    this.lastProgress = this.started;
    search.stopPoll = new StopPoll(search.options, this.started);
    const maxStates = search.options.maxStates ?? Infinity;
    const maxDepth = search.options.maxDepth ?? Infinity;

    const init = (await this.round(() => ({ kind: 'init' })))[0];
    this.fail([init]);
    let levelStart = search.log.size;
    const candidateOf: number[] = [];
    for (let k = 0; k < init.count; k++) {
      search.generated++;
      const r = init.records;
      const hi = r[k * RECORD + 2] >>> 0;
      const lo = r[k * RECORD + 3] >>> 0;
      if (search.seen.get(hi, lo) !== -1) continue;
      if (search.log.size >= maxStates) {
        search.incomplete = 'maxStates';
        break;
      }
      search.seen.put(hi, lo, search.log.size);
      if (search.symmetric) search.fullStates += r[k * RECORD + 4] >>> 1;
      this.fp.hi = hi;
      this.fp.lo = lo;
      search.log.add(-1, -1, this.fp, 1);
      candidateOf.push(k);
    }
    if (search.log.size === 0) {
      throw noInitialState(search.modelName, search.variant.name);
    }
    this.holder = new Int32Array(candidateOf.length);
    this.holderCandidate = Int32Array.from(candidateOf);
    search.depth = 1;

    for (;;) {
      const levelEnd = search.log.size;
      const n = levelEnd - levelStart;
      if (n === 0) break;
      const expand = search.incomplete === undefined;
      const orders = this.assign(levelStart, n);
      const violated = search.variant.properties.flatMap((p, i) => (search.findings.has(p.name) ? [i] : []));
      const replicas = this.replicated;
      const reports = await this.round((w) => ({ kind: 'level', assign: orders[w], expand, quiet: replicas && w > 0, violated }));
      const used = replicas ? reports.slice(0, 1) : reports;
      this.fail(used);
      for (const rep of used) {
        for (const [i, c] of rep.invariantPremise.entries()) search.invariantPremise[i] += c;
        for (const [i, c] of rep.livenessPremise.entries()) search.livenessPremise[i] += c;
        if (rep.stopped !== undefined) search.incomplete ??= rep.stopped;
        const graph = search.graph;
        if (graph) {
          const l = rep.labels;
          for (let k = 0; k < l.length; k += 2) {
            for (let i = 0; i < search.livenessProperties.length; i++) graph.label(l[k], i, (l[k + 1] >>> (2 * i)) & 3);
          }
        }
      }
      this.recordFirst(used.flatMap((rep) => pairs(rep.invariantFindings)));
      if (!expand) break;
      const cut = this.merge(used, this.search.depth >= maxDepth, maxStates);
      this.recordSteps(used, cut);
      this.progress(levelEnd);
      if (search.log.size > levelEnd) search.depth++;
      levelStart = levelEnd;
    }
    for (const link of this.links) link.send({ kind: 'close' });
    search.depth = search.log.depth(search.log.size - 1);
    const seconds = (performance.now() - this.started) / 1000;
    // Liveness needs the whole graph: a search cut short has states whose steps were never generated.
    if (search.graph && !search.incomplete) search.checkLiveness(search.graph);
    return search.result(seconds);
  }

  /** Sends each thread its order, works on thread 0's here, and waits for every report. */
  private async round(order: (w: number) => Parameters<ExpanderLink['send']>[0]): Promise<Report[]> {
    for (let w = this.links.length - 1; w >= 0; w--) this.links[w].send(order(w));
    return Promise.all(this.links.map((l) => l.report()));
  }

  /** Which thread expands each state of the level: pairs (candidate index, id) per thread. */
  private assign(levelStart: number, n: number): Int32Array[] {
    const threads = this.links.length;
    const lists: number[][] = this.links.map(() => []);
    if (this.replicated && n < this.warmUp * threads) {
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
  private merge(reports: Report[], atDepthLimit: boolean, maxStates: number): [number, number] | undefined {
    const next: Holders = { holder: [], holderCandidate: [] };
    const cut = this.mergeInto(next, reports, atDepthLimit, maxStates);
    this.holder = Int32Array.from(next.holder);
    this.holderCandidate = Int32Array.from(next.holderCandidate);
    return cut;
  }

  private mergeInto(next: Holders, reports: Report[], atDepthLimit: boolean, maxStates: number): [number, number] | undefined {
    const search = this.search;
    const { seen, log } = search;
    const fp = this.fp;
    const threads = reports.length;
    const pos = new Int32Array(threads);
    const candidates = new Int32Array(threads);
    const paramPos = new Int32Array(threads);
    const graph = search.graph;
    const paramKeyed = search.paramKeyed;
    const { holder, holderCandidate } = next;
    const depth = search.depth;
    for (;;) {
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
      if (graph) graph.beginState(r[pos[w] * RECORD]);
      for (;;) {
        const at = pos[w]++ * RECORD;
        const parent = r[at];
        const action = r[at + 1];
        const extra = r[at + 4];
        if (action === END || action === END_DEADLOCK) {
          if (action === END_DEADLOCK && search.checkDeadlock) search.record(DEADLOCK_PROPERTY, parent);
          if (extra === 1) {
            const premiseBits = r[at + 2];
            const violatedBits = r[at + 3];
            for (let i = 0; i < search.settledProperties.length; i++) {
              if (premiseBits & (1 << i)) search.settledPremise[i]++;
              if (violatedBits & (1 << i)) search.record(search.settledProperties[i], parent);
            }
          }
          if ((++this.expanded & 255) === 0) {
            const stop = search.stopPoll.check();
            if (stop !== undefined) {
              search.incomplete = stop;
              return undefined;
            }
          }
          break;
        }
        const hi = r[at + 2] >>> 0;
        const lo = r[at + 3] >>> 0;
        const candidate = extra & 1 ? candidates[w]++ : -1;
        const param = graph && paramKeyed[action] === 1 ? graph.paramId(reports[w].params[paramPos[w]++]) : -1;
        search.generated++;
        search.enabledCount[action]++;
        const thisSeq = seq++;
        if (atDepthLimit || log.size >= maxStates) {
          // Near a limit, look before inserting: a state over the limit is not stored.
          const old = seen.get(hi, lo);
          if (old !== -1) {
            if (graph) graph.addEdge(parent, old, action, param);
            continue;
          }
          if (atDepthLimit) {
            search.incomplete = 'maxDepth';
            continue;
          }
          search.incomplete = 'maxStates';
          return [parent, thisSeq];
        }
        const known = seen.put(hi, lo, log.size);
        if (graph) graph.addEdge(parent, known === NEW ? log.size : known, action, param);
        if (known !== NEW) continue;
        if (candidate === -1) throw new Error(`parallel search: a new state ${hi}:${lo} was not kept by its thread`);
        if (search.symmetric) search.fullStates += extra >>> 1;
        fp.hi = hi;
        fp.lo = lo;
        log.add(parent, action, fp, depth + 1);
        search.newCount[action]++;
        holder.push(w);
        holderCandidate.push(candidate);
      }
    }
    return undefined;
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
      const p = this.search.variant.properties[pi];
      if (this.search.findings.has(p.name)) continue;
      this.search.findings.set(p.name, {
        property: p,
        stateId: parent,
        step: { action, target: { hi: hi >>> 0, lo: lo >>> 0 } },
      });
    }
  }

  /** Records each property's violation in the state of least id among `found` (index, id). */
  private recordFirst(found: [number, number][]): void {
    found.sort((a, b) => a[1] - b[1]);
    for (const [pi, id] of found) this.search.record(this.search.variant.properties[pi], id);
  }

  /** A fault in the model met by a thread: the first in one-thread order, with its trace. */
  private fail(reports: Report[]): void {
    const failures = reports.flatMap((r) => (r.failure ? [r.failure] : []));
    if (failures.length === 0) return;
    failures.sort((a, b) => (a.phase === b.phase ? a.id - b.id : a.phase === 'check' ? -1 : 1));
    const f = failures[0];
    let cause: Error | undefined;
    if (f.cause) {
      cause = new Error(f.cause.message);
      cause.name = f.cause.name;
      if (f.cause.stack) cause.stack = f.cause.stack;
    }
    throw new ModelError(f.code, f.message, { ...this.search.details(f.subject, f.id, cause), ...(f.hint ? { hint: f.hint } : {}) });
  }

  private progress(levelEnd: number): void {
    const onProgress = this.search.options.onProgress;
    if (!onProgress) return;
    const now = performance.now();
    if (now - this.lastProgress < 1000) return;
    this.lastProgress = now;
    onProgress({
      variant: this.search.variant.name,
      distinctStates: this.search.log.size,
      statesGenerated: this.search.generated,
      depth: this.search.depth,
      queue: this.search.log.size - levelEnd,
      seconds: (now - this.started) / 1000,
    });
  }
}

interface Holders {
  holder: number[];
  holderCandidate: number[];
}

function pairs(list: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.length; i += 2) out.push([list[i], list[i + 1]]);
  return out;
}
