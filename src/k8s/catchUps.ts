// A memo of cache catch-ups. A catch-up (an informer taking in an object's oldest pending events
// and running its manager's watch handlers) reads only that manager's pending events, their
// order and its cache, and writes those and the controllers' queues. The search meets the same
// catch-up again and again: after steps of other actors that leave those three values as they
// were (the same objects: values never change), it is the other side of a diamond of independent
// steps. Counted on bench case 6: 79% of its 895,801 catch-ups had been done before on the same
// three values. Kept, a catch-up's outcome is applied rather than worked out again, and it is
// the same objects as before, whose digests the fingerprinter already keeps (encoding.ts), so a
// successor costs fewer new parts to fingerprint as well as less work to make.
import type { List, Map } from 'immutable';
import type { WatchEvent } from './apiServer.ts';
import type { KubeObject, ObjectKey } from './object.ts';
import { withCatchUp, type KubeWorld, type WatchOrder } from './world.ts';

/** What one catch-up leaves in its manager's part of the world, and what its handlers queued. */
export interface CatchUp {
  readonly pending: Map<ObjectKey, List<WatchEvent>>;
  readonly order: Map<string, WatchOrder> | undefined;
  readonly cache: Map<ObjectKey, KubeObject> | undefined;
  /** Per watch handler that queued anything, in the order they ran: its controller and the keys. */
  readonly enqueued: readonly (readonly [controller: string, keys: readonly ObjectKey[]])[];
}

/** Which catch-up, and the values it reads: its manager's pending events, their order and its cache (by identity). */
export interface CatchUpKey {
  readonly pending: Map<ObjectKey, List<WatchEvent>>;
  readonly manager: string;
  readonly key: ObjectKey;
  /** How many events it takes in: negative for a coalesced catch-up (its handlers run once). */
  readonly count: number;
  readonly cache: Map<ObjectKey, KubeObject> | undefined;
  readonly order: Map<string, WatchOrder> | undefined;
}

interface Entry {
  readonly at: CatchUpKey;
  readonly outcome: CatchUp;
}

/** How many pending-event maps the memo keeps catch-ups for before it starts again. */
const LIMIT = 1 << 15;

export class CatchUps {
  /** By the manager's pending events before the catch-up (by identity), the catch-ups done from them. */
  private readonly byPending = new globalThis.Map<object, Entry[]>();

  /** The outcome of the catch-up `k`, if done before on the same values. */
  find(k: CatchUpKey): CatchUp | undefined {
    const entries = this.byPending.get(k.pending);
    if (entries === undefined) return undefined;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i].at;
      if (e.key === k.key && e.count === k.count && e.cache === k.cache && e.order === k.order && e.manager === k.manager)
        return entries[i].outcome;
    }
    return undefined;
  }

  /** Forgets every catch-up: a search begins, and each of its catch-ups' handlers must run once in it (wiringCoverage.ts). */
  clear(): void {
    this.byPending.clear();
  }

  keep(k: CatchUpKey, outcome: CatchUp): void {
    let entries = this.byPending.get(k.pending);
    if (entries === undefined) {
      // Bounded: the memo holds the values it is keyed by, which the states may have let go.
      if (this.byPending.size >= LIMIT) this.byPending.clear();
      entries = [];
      this.byPending.set(k.pending, entries);
    }
    entries.push({ at: k, outcome });
  }
}

/** `world` with a catch-up's outcome applied to `manager`'s part and the queues, as working it out would leave it. */
export function applyCatchUp(world: KubeWorld, manager: string, outcome: CatchUp): KubeWorld {
  return withCatchUp(world, manager, outcome.pending, outcome.order, outcome.cache, outcome.enqueued);
}
