// What a search can tell of a Kubernetes environment's wiring only by running it: a watch that
// never queued a key (its kind spelt otherwise than the objects', a predicate that never passes,
// a map that never finds a key) and a read that never found the object it named (a reconcile
// that creates under one name and reads another). Each is noted, once per search and thread,
// from inside the steps, and a complete search warns of what it never saw (model.ts Coverage),
// as it warns of an action never enabled.
import type { Coverage } from '../engine/model.ts';
import type { ControllerConfig } from './controller.ts';
import type { ObjectKey } from './object.ts';

/** A read's outcomes so far: read, or read and found. */
const READ = 1;
const FOUND = 2;

export class WiringCoverage implements Coverage {
  /** Per controller, per watch (in declared order): its label, and whether this thread noted it. */
  private readonly watchLabels: string[][];
  private readonly watchNoted: boolean[][];
  /** Per controller: the keys its steps read (cache or live GET), and whether one was ever found. */
  private readonly reads: globalThis.Map<ObjectKey, number>[];
  private pending: string[] = [];
  /**
   * Watches that queued a key while initial worlds were built (Kubernetes.initialWorlds, often
   * called when the model loads, before any search): noted again after every reset. (A world
   * built for another variant may so hide a warning; it never makes one up.)
   */
  private readonly initially = new Set<string>();
  private building = false;

  constructor(
    private readonly controllers: readonly ControllerConfig<unknown>[],
    /** Forgets what the library's memos hold: a catch-up applied from one runs no handler, and notes nothing. */
    private readonly forgetMemos: () => void,
  ) {
    this.watchLabels = controllers.map((c) => c.watches.map((w, i) => `watch ${c.name} ${i} ${w.kind}`));
    this.watchNoted = controllers.map((c) => c.watches.map(() => false));
    this.reads = controllers.map(() => new globalThis.Map());
  }

  /** Watch `w` of controller `c` (indices) queued a key. */
  watchQueued(c: number, w: number): void {
    if (this.building) this.initially.add(this.watchLabels[c][w]);
    const noted = this.watchNoted[c];
    if (noted[w]) return;
    noted[w] = true;
    this.pending.push(this.watchLabels[c][w]);
  }

  /** Controller `c` read `key` (from its cache or the server), and found it or not. */
  read(c: number, key: ObjectKey, found: boolean): void {
    const reads = this.reads[c];
    const was = reads.get(key) ?? 0;
    const now = was | READ | (found ? FOUND : 0);
    if (now === was) return;
    reads.set(key, now);
    const name = this.controllers[c].name;
    if (!(was & READ)) this.pending.push(`read ${name} ${key}`);
    if (found && !(was & FOUND)) this.pending.push(`found ${name} ${key}`);
  }

  reset(): void {
    this.forgetMemos();
    for (const noted of this.watchNoted) noted.fill(false);
    for (const reads of this.reads) reads.clear();
    this.pending = [...this.initially];
  }

  /** Runs `build` (the making of initial worlds), keeping what its watches queued for every search. */
  initialWorlds<T>(build: () => T): T {
    this.building = true;
    try {
      return build();
    } finally {
      this.building = false;
    }
  }

  drain(): readonly string[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  warnings(seen: ReadonlySet<string>): readonly string[] {
    const out: string[] = [];
    this.controllers.forEach((c, ci) => {
      c.watches.forEach((w, wi) => {
        if (seen.has(this.watchLabels[ci][wi])) return;
        const what = wi === 0 ? `its For() watch on ${w.kind}` : `its watch on ${w.kind}`;
        out.push(
          `controller ${c.name}: ${what} never queued a key in any reachable state (is ${w.kind} spelt as the objects' kind?${w.predicate ? ' does its predicate ever pass?' : ''}${w.map ? ' does its map ever return a key?' : ''})`,
        );
      });
    });
    // Reads by controller, in the order of the labels' keys, that never found their object.
    const never = new globalThis.Map<string, string[]>();
    for (const label of seen) {
      if (!label.startsWith('read ')) continue;
      const [, controller, key] = label.split(' ');
      if (seen.has(`found ${controller} ${key}`)) continue;
      never.set(controller, [...(never.get(controller) ?? []), key]);
    }
    for (const c of this.controllers) {
      const keys = never.get(c.name);
      if (keys === undefined) continue;
      for (const key of keys.sort()) {
        out.push(
          `controller ${c.name} reads ${key} but never finds it in any reachable state (does anything create an object of that name?)`,
        );
      }
    }
    return out;
  }
}
