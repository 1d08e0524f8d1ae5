// The Kubernetes part of a model's state: API servers, the watch events each manager's cache
// has not taken in yet, the caches, the controllers' work queues and their in-flight reconciles.
// The functions here are the client-go and controller-runtime mechanics: events fan out from a
// write to every cache that watches the kind, a cache takes them in per object (moving forward
// through that object's history, never back, lagging as long as the search lets it) in the order
// its informer's DeltaFIFO hands them out (see WatchOrder), and taking an event in runs the watch
// handlers that enqueue keys.
import { List, Map, Set, type RecordOf } from 'immutable';
import { fieldIndex, FlatRecord, valueAt, valuesOf, withValueAt, withValues } from '../engine/values/flatRecord.ts';
import { mapEntries } from '../engine/values/immutableInternals.ts';
import { emptyServer, type ApiServer, type WatchEvent } from './apiServer.ts';
import { PRESENTED } from '../engine/values/presented.ts';
import type { KubeObject, ObjectKey } from './object.ts';

/** A local variable of an in-flight reconcile: any state value (a copy of an object, a list, a flag). */
export type LocalValue = unknown;

export interface ReconcileProps {
  /** The next step this reconcile will take (a name from the controller's steps). */
  step: string;
  /** Its local variables, e.g. the copy of the object it read from the cache. */
  locals: Map<string, LocalValue>;
}
export type Reconcile = RecordOf<ReconcileProps>;
export const Reconcile = FlatRecord<ReconcileProps>({ step: '', locals: Map() }, 'Reconcile');

/**
 * The order in which one cache's informer for one kind hands out its pending events, kept only
 * where it says more than each object's own list does. client-go runs one informer per kind and
 * cache; its watch delivers that kind's events in write order into a DeltaFIFO keyed by object,
 * which appends a key when it has no deltas queued and otherwise adds the delta to the key's
 * place; Pop takes the first key with every delta queued for it, and they are processed oldest
 * first (client-go tools/cache delta_fifo.go queueActionInternalLocked and Pop, controller.go
 * processDeltas). So a pop of an object can take its later events ahead of another object's
 * earlier ones, but only events that had reached the DeltaFIFO: those at or before the
 * furthest event taken in so far. Inference: assuming that no more had arrived than that is
 * the assumption that allows every behaviour the others allow, so it is the one kept.
 */
export interface WatchOrderProps {
  /** The key of each pending event of the kind, oldest first. */
  keys: List<ObjectKey>;
  /** How many of those events have certainly reached the DeltaFIFO (0 when fewer than two). */
  arrived: number;
}
export type WatchOrder = RecordOf<WatchOrderProps>;
export const WatchOrder = FlatRecord<WatchOrderProps>({ keys: List(), arrived: 0 }, 'WatchOrder');

/**
 * What a garbage collector that keeps its own graph holds besides its informers' cache (the
 * observed objects, a follower cache `<server>GC`): the virtual nodes (owners its dependents name
 * that it has not observed: by uid, the owner's key and the namespace it is looked for in), the
 * attemptToDelete queue (object keys, and `virtual:<uid>`), and the absent-owner cache (uids, or
 * identities `uid@namespace`, as the collector's version keys it).
 */
export interface GcGraphProps {
  virtual: Map<string, VirtualNode>;
  queue: Set<string>;
  absent: Set<string>;
}
export type GcGraph = RecordOf<GcGraphProps>;
export const GcGraph = FlatRecord<GcGraphProps>({ virtual: Map(), queue: Set(), absent: Set() }, 'GcGraph');
export interface VirtualNodeProps {
  key: ObjectKey;
  namespace: string;
}
export type VirtualNode = RecordOf<VirtualNodeProps>;
export const VirtualNode = FlatRecord<VirtualNodeProps>({ key: '', namespace: '' }, 'VirtualNode');

/**
 * The world as Maps by owner name: how the reports show it (the `--json` document, ITF, the
 * explorer, a state without a view), as the world was held before it became one record.
 */
export interface KubeWorldMapsProps {
  servers: Map<string, ApiServer>;
  /** Per cache, per object: the watch events sent but not yet taken into the cache, oldest first. */
  pending: Map<string, Map<ObjectKey, List<WatchEvent>>>;
  /**
   * Per cache, per kind: the order of the pending events across objects, present only while it
   * matters (two objects of the kind have events pending, or two or more events have certainly
   * arrived), so that a kind with one object pending reads as before.
   */
  order: Map<string, Map<string, WatchOrder>>;
  /** Per cache (one per controller manager): the objects as that cache last saw them. */
  caches: Map<string, Map<ObjectKey, KubeObject>>;
  /** Per controller: its work queue (a set: adding a queued key again changes nothing). */
  queues: Map<string, Set<ObjectKey>>;
  /** Per controller: the reconciles under way, one at most per key. */
  reconciles: Map<string, Map<ObjectKey, Reconcile>>;
  /**
   * Per controller that waits for its own writes (ControllerConfig.waitForOwnWrites): per
   * reconcile key, the objects it wrote and the resourceVersion each write left, until its
   * cache has taken them in.
   */
  written: Map<string, Map<ObjectKey, Map<ObjectKey, number>>>;
  /** Per server whose garbage collector keeps its own graph: that graph's state (gcGraph.ts). */
  gc: Map<string, GcGraph>;
  /** Fault budget: how many controller-manager restarts may still happen (KubeFaults.restarts). */
  restartsLeft: number;
}
export type KubeWorldMaps = RecordOf<KubeWorldMapsProps>;
const KubeWorldMaps = FlatRecord<KubeWorldMapsProps>(
  {
    servers: Map(),
    pending: Map(),
    order: Map(),
    caches: Map(),
    queues: Map(),
    reconciles: Map(),
    written: Map(),
    gc: Map(),
    restartsLeft: 0,
  },
  'KubeWorld',
);

/**
 * The Kubernetes part of a model's state: one record whose fields are the parts by owner,
 * `servers/<server>` (an ApiServer), `pending/<manager>`, `order/<manager>` and
 * `caches/<manager>` (Maps by object key, by kind, by object key), `queues/<controller>` (a Set)
 * and `reconciles/<controller>` (a Map by object key), and `restartsLeft`: a record type per
 * environment, made by newWorld. Read and written through the functions below only.
 *
 * Why one record and not Maps by owner: a step changes one manager's or controller's parts,
 * and with Maps by owner each such change made a new Map per kind of part, each a new part
 * to allocate, keep and fingerprint; as fields of the world they are one array copy. On bench
 * case 6 that took the search from 16.2 to 14.1 s (bench/README.md, sixteenth run).
 */
export type KubeWorld = RecordOf<{ restartsLeft: number }>;

/** The owners of a world type's fields, in the order traces show them. */
interface Layout {
  readonly servers: readonly string[];
  readonly managers: readonly string[];
  readonly controllers: readonly string[];
  /** The controllers that wait for their own writes (a `written/<controller>` field each). */
  readonly waiting: readonly string[];
  /** The servers whose garbage collector keeps its own graph (a `gc/<server>` field each). */
  readonly graphs: readonly string[];
}
type WorldType = (values: globalThis.Record<string, unknown>) => KubeWorld;
/** World types by their owners (`servers;managers;controllers`), and their owners by prototype. */
const worldTypes = new globalThis.Map<string, WorldType>();
const layouts = new WeakMap<object, Layout>();
/** The value of an `order/<manager>` field with no order kept (ordersIn reads it as undefined). */
const NO_ORDERS = Map<string, WatchOrder>();
/** The value of a `written/<controller>` field with nothing recorded (one representation, so equal worlds fingerprint alike). */
const NOTHING_WRITTEN = Map<ObjectKey, Map<ObjectKey, number>>();

/** What an `order/<manager>` field holds for `orders`: NO_ORDERS for none (one representation, so equal worlds fingerprint alike). */
function orderField(orders: Map<string, WatchOrder> | undefined): Map<string, WatchOrder> {
  return orders === undefined || orders.size === 0 ? NO_ORDERS : orders;
}

/** A world type's prototype, on the prototype itself (see FieldSlots.of). */
const TYPE_OF = Symbol('KubeWorld type');

/**
 * Where each owner's field of one kind (`pending/<manager>`, say) sits in a world record's
 * values. A step reads and writes a few of them, many times per successor: the index is found
 * among the few owners met so far (callers pass their configuration's strings, so the
 * comparison is mostly by identity), not by looking the owner's field name up and then the
 * field by that name, which took about 4% of bench case 6 (bench/README.md, seventeenth run).
 */
class FieldSlots {
  private owners: string[] = [];
  private protos: object[] = [];
  private indices: number[] = [];
  constructor(private readonly kind: string) {}

  /** The field's name: `<kind>/<owner>`. */
  name(owner: string): string {
    return `${this.kind}/${owner}`;
  }

  /** The index of `owner`'s field in `world`'s values, or -1 where its type has none. */
  of(world: KubeWorld, owner: string): number {
    // The world's type by a property of its prototype (TYPE_OF): one load where a run has one
    // world type, where Object.getPrototypeOf was a call, about 2% of bench case 6.
    const type = (world as unknown as { readonly [TYPE_OF]?: object })[TYPE_OF] ?? (Object.getPrototypeOf(world) as object);
    const owners = this.owners;
    for (let i = 0; i < owners.length; i++) if (owners[i] === owner && this.protos[i] === type) return this.indices[i];
    return this.learn(world, owner, type);
  }

  private learn(world: KubeWorld, owner: string, proto: object): number {
    // (Bounded, since the scan is linear: a run has one or two world types; a test file, more.)
    if (this.owners.length >= 32) {
      this.owners = [];
      this.protos = [];
      this.indices = [];
    }
    const index = fieldIndex(world, this.name(owner));
    this.owners.push(owner);
    this.protos.push(proto);
    this.indices.push(index);
    return index;
  }
}
const SERVER = new FieldSlots('servers');
const PENDING = new FieldSlots('pending');
const ORDER = new FieldSlots('order');
const CACHE = new FieldSlots('caches');
const QUEUE = new FieldSlots('queues');
const RECONCILES = new FieldSlots('reconciles');
const WRITTEN = new FieldSlots('written');
const GC = new FieldSlots('gc');

function read<T>(world: KubeWorld, slots: FieldSlots, owner: string): T | undefined {
  const i = slots.of(world, owner);
  return i < 0 ? undefined : (valueAt(world, i) as T);
}
function write(world: KubeWorld, slots: FieldSlots, owner: string, value: unknown): KubeWorld {
  return withValueAt(world, slotOf(world, slots, owner), value);
}
/** The index of `owner`'s field in `world`; an error for a name the configuration does not know. */
function slotOf(world: KubeWorld, slots: FieldSlots, owner: string): number {
  const i = slots.of(world, owner);
  if (i < 0) throw new Error(`the Kubernetes world has no ${slots.name(owner).replace('/', ' ')} (not in its configuration)`);
  return i;
}

/**
 * A world with empty servers, caches and queues, in the order given (the order traces show
 * them in); `waiting`: the controllers that wait for their own writes.
 */
export function newWorld(
  servers: readonly string[],
  managers: readonly string[],
  controllers: readonly string[],
  restartsLeft: number,
  waiting: readonly string[] = [],
  graphs: readonly string[] = [],
): KubeWorld {
  const key =
    `${servers.join(',')};${managers.join(',')};${controllers.join(',')}` +
    `${waiting.length > 0 || graphs.length > 0 ? `;${waiting.join(',')}` : ''}${graphs.length > 0 ? `;gc:${graphs.join(',')}` : ''}`;
  let make = worldTypes.get(key);
  if (make === undefined) {
    const defaults: globalThis.Record<string, unknown> = {};
    for (const name of servers) defaults[SERVER.name(name)] = emptyServer();
    for (const name of managers) {
      defaults[PENDING.name(name)] = Map<ObjectKey, List<WatchEvent>>();
      defaults[ORDER.name(name)] = NO_ORDERS;
      defaults[CACHE.name(name)] = Map<ObjectKey, KubeObject>();
    }
    for (const name of controllers) {
      defaults[QUEUE.name(name)] = Set<ObjectKey>();
      defaults[RECONCILES.name(name)] = Map<ObjectKey, Reconcile>();
    }
    for (const name of waiting) defaults[WRITTEN.name(name)] = NOTHING_WRITTEN;
    for (const name of graphs) defaults[GC.name(name)] = GcGraph();
    defaults.restartsLeft = 0;
    // (Named by its owners: a state codec knows Record types by name, one type to a name.)
    const type = FlatRecord(defaults, `KubeWorld(${key})`);
    const proto = Object.getPrototypeOf(type()) as object;
    layouts.set(proto, {
      servers: [...servers],
      managers: [...managers],
      controllers: [...controllers],
      waiting: [...waiting],
      graphs: [...graphs],
    });
    Object.defineProperty(proto, TYPE_OF, { value: proto });
    // The reports show the world as Maps by owner, as it was held before (see KubeWorldMaps).
    Object.defineProperty(proto, PRESENTED, {
      value(this: KubeWorld) {
        return worldMaps(this);
      },
    });
    make = type as unknown as WorldType;
    worldTypes.set(key, make);
  }
  return make({}).set('restartsLeft', restartsLeft) as KubeWorld;
}

/** An empty world (no servers, managers or controllers), for a state record's default value; Kubernetes.initialWorlds builds the real ones. */
export function emptyWorld(): KubeWorld {
  return newWorld([], [], [], 0);
}

function layoutOf(world: KubeWorld): Layout {
  const layout = layouts.get(Object.getPrototypeOf(world) as object);
  if (layout === undefined) throw new Error('not a Kubernetes world (made by newWorld)');
  return layout;
}

/** The world as Maps by owner name, as the reports show it (KubeWorldMaps). The parts are the world's own values. */
export function worldMaps(world: KubeWorld): KubeWorldMaps {
  const { servers, managers, controllers, waiting, graphs } = layoutOf(world);
  const orders: [string, Map<string, WatchOrder>][] = [];
  for (const m of managers) {
    const o = ordersIn(world, m);
    if (o !== undefined) orders.push([m, o]);
  }
  return KubeWorldMaps({
    servers: Map(servers.map((n) => [n, serverIn(world, n)!] as const)),
    pending: Map(managers.map((n) => [n, pendingIn(world, n)!] as const)),
    order: Map(orders),
    caches: Map(managers.map((n) => [n, cacheIn(world, n)!] as const)),
    queues: Map(controllers.map((n) => [n, queueIn(world, n)!] as const)),
    reconciles: Map(controllers.map((n) => [n, reconcilesIn(world, n)!] as const)),
    written: Map(waiting.map((n) => [n, writtenIn(world, n)!] as const)),
    gc: Map(graphs.map((n) => [n, gcIn(world, n)!] as const)),
    restartsLeft: world.restartsLeft,
  });
}

// The world's parts by owner: each server's objects, each manager's pending events, their
// order and its cache, each controller's queue and reconciles. Everything else reads and
// writes them through these, so that how the world holds them is decided here alone.

export function serverIn(world: KubeWorld, server: string): ApiServer | undefined {
  return read(world, SERVER, server);
}
/**
 * Whether `a` and `b` hold every server's objects as the same values (a step that wrote to
 * none); `servers`, where the caller has them, saves looking up the world's own list.
 */
export function sameServers(a: KubeWorld, b: KubeWorld, servers: readonly string[] = layoutOf(a).servers): boolean {
  if (a === b) return true;
  for (let i = 0; i < servers.length; i++) if (serverIn(a, servers[i]) !== serverIn(b, servers[i])) return false;
  return true;
}
export function withServer(world: KubeWorld, server: string, srv: ApiServer): KubeWorld {
  return write(world, SERVER, server, srv);
}
/** `cache`'s pending events by object (an object with none has no entry). */
export function pendingIn(world: KubeWorld, cache: string): Map<ObjectKey, List<WatchEvent>> | undefined {
  return read(world, PENDING, cache);
}
export function withPending(world: KubeWorld, cache: string, pending: Map<ObjectKey, List<WatchEvent>>): KubeWorld {
  return write(world, PENDING, cache, pending);
}
/** `cache`'s informers' orders by kind, where one is kept (see WatchOrder); undefined where none is. */
export function ordersIn(world: KubeWorld, cache: string): Map<string, WatchOrder> | undefined {
  const orders = read<Map<string, WatchOrder>>(world, ORDER, cache);
  return orders === undefined || orders.size === 0 ? undefined : orders;
}
/** `world` with `cache`'s orders replaced; `undefined` or an empty Map: none kept. */
export function withOrders(world: KubeWorld, cache: string, orders: Map<string, WatchOrder> | undefined): KubeWorld {
  return write(world, ORDER, cache, orderField(orders));
}
export function cacheIn(world: KubeWorld, cache: string): Map<ObjectKey, KubeObject> | undefined {
  return read(world, CACHE, cache);
}
export function withCache(world: KubeWorld, cache: string, objects: Map<ObjectKey, KubeObject>): KubeWorld {
  return write(world, CACHE, cache, objects);
}
export function queueIn(world: KubeWorld, controller: string): Set<ObjectKey> | undefined {
  return read(world, QUEUE, controller);
}
export function withQueue(world: KubeWorld, controller: string, queue: Set<ObjectKey>): KubeWorld {
  return write(world, QUEUE, controller, queue);
}
export function reconcilesIn(world: KubeWorld, controller: string): Map<ObjectKey, Reconcile> | undefined {
  return read(world, RECONCILES, controller);
}
export function withReconciles(world: KubeWorld, controller: string, reconciles: Map<ObjectKey, Reconcile>): KubeWorld {
  return write(world, RECONCILES, controller, reconciles);
}

/** A server's garbage-collector graph, where its collector keeps one. */
export function gcIn(world: KubeWorld, server: string): GcGraph | undefined {
  return read(world, GC, server);
}
export function withGc(world: KubeWorld, server: string, gc: GcGraph): KubeWorld {
  return write(world, GC, server, gc);
}

/** A waiting controller's writes not yet seen, by reconcile key; undefined for a controller that does not wait. */
export function writtenIn(world: KubeWorld, controller: string): Map<ObjectKey, Map<ObjectKey, number>> | undefined {
  return read(world, WRITTEN, controller);
}
export function withWritten(world: KubeWorld, controller: string, written: Map<ObjectKey, Map<ObjectKey, number>>): KubeWorld {
  return write(world, WRITTEN, controller, written.size === 0 ? NOTHING_WRITTEN : written);
}
/** The kind of `Kind/name`. */
export function kindOfKey(key: ObjectKey): string {
  return key.slice(0, key.indexOf('/'));
}

/** Whether `key` is of `kind` (without cutting the kind out of it: this runs for every state). */
function isOfKind(key: ObjectKey, kind: string): boolean {
  return key.charCodeAt(kind.length) === 47 /* '/' */ && key.startsWith(kind);
}

/** The first key of `kind` with events pending for `cache` other than `not`, if any. */
function pendingOfKind(world: KubeWorld, cache: string, kind: string, not?: ObjectKey): ObjectKey | undefined {
  const pending = pendingIn(world, cache);
  if (pending === undefined) return undefined;
  // Asked at every write, of a Map of a few objects: read from immutable.js's array where it
  // keeps one (immutableInternals.ts), in its order, rather than through findKey and a closure.
  const entries = mapEntries(pending);
  if (entries === undefined) return pending.findKey((_, k) => k !== not && isOfKind(k, kind));
  for (let i = 0; i < entries.length; i++) {
    const k = entries[i][0] as ObjectKey;
    if (k !== not && isOfKind(k, kind)) return k;
  }
  return undefined;
}

/** Sets (or, where it says nothing more than the per-object lists, drops) an order entry. */
export function withOrder(world: KubeWorld, cache: string, kind: string, keys: List<ObjectKey>, arrived: number): KubeWorld {
  const needed = arrived >= 2 || keys.some((k) => k !== keys.first());
  const kinds = ordersIn(world, cache);
  if (needed) return withOrders(world, cache, (kinds ?? Map<string, WatchOrder>()).set(kind, WatchOrder({ keys, arrived })));
  if (kinds === undefined || !kinds.has(kind)) return world;
  return withOrders(world, cache, kinds.delete(kind));
}

/** Appends `event` to the pending events of every cache in `caches`, in write order. */
export function sendEvent(world: KubeWorld, caches: readonly string[], event: WatchEvent): KubeWorld {
  const key = `${event.object.kind}/${event.object.name}`;
  const kind = event.object.kind;
  let next = world;
  for (const cache of caches) {
    const kinds = ordersIn(next, cache);
    const entry = kinds?.get(kind);
    if (entry !== undefined) {
      next = withOrders(next, cache, kinds!.set(kind, entry.set('keys', entry.keys.push(key))));
    } else {
      // Without an entry at most one object of the kind has events pending.
      const other = pendingOfKind(next, cache, kind, key);
      if (other !== undefined) {
        const n = pendingIn(next, cache)!.get(other)!.size;
        next = withOrder(
          next,
          cache,
          kind,
          List<ObjectKey>()
            .setSize(n)
            .map(() => other)
            .push(key),
          0,
        );
      }
    }
    const pending = pendingIn(next, cache) ?? Map<ObjectKey, List<WatchEvent>>();
    next = withPending(next, cache, pending.set(key, (pending.get(key) ?? List<WatchEvent>()).push(event)));
  }
  return next;
}

/** The oldest pending event of `key` for `cache`, if any. */
export function nextEvent(world: KubeWorld, cache: string, key: ObjectKey): WatchEvent | undefined {
  return pendingIn(world, cache)?.get(key)?.first();
}

/** The object whose events `cache`'s informer for `kind` hands out next, if any. */
export function headOf(world: KubeWorld, cache: string, kind: string): ObjectKey | undefined {
  const entry = ordersIn(world, cache)?.get(kind);
  return entry !== undefined ? entry.keys.first() : pendingOfKind(world, cache, kind);
}

/**
 * Whether `key`'s events are the ones `cache`'s informer for its kind hands out next: as
 * `headOf(world, cache, kindOfKey(key)) === key`, without looking through the pending events
 * when the kind keeps no order. Then at most one object of the kind has events pending
 * (sendEvent makes an order as soon as a second one has; withOrder drops it only when one is
 * left), so it is the head if it has any. Asked for every pending object of every state.
 */
export function isHead(world: KubeWorld, cache: string, key: ObjectKey): boolean {
  const orders = ordersIn(world, cache);
  const entry = orders === undefined ? undefined : orders.get(kindOfKey(key));
  if (entry !== undefined) return entry.keys.first() === key;
  return pendingIn(world, cache)?.has(key) ?? false;
}

/**
 * How many events of `key`, the head of its kind, a pop may take: at least every one that has
 * certainly arrived (and one), and more only where that takes an event ahead of another
 * object's earlier one (taking the next event of a run of one object's events is the same as
 * popping again, so it is not offered twice).
 */
export function popSizes(world: KubeWorld, cache: string, key: ObjectKey): number[] {
  const entry = ordersIn(world, cache)?.get(kindOfKey(key));
  if (entry === undefined) return [1];
  let least = 0;
  entry.keys.forEach((k, i) => {
    if (i < entry.arrived && k === key) least++;
  });
  least = Math.max(1, least);
  const sizes = [least];
  let taken = 0;
  entry.keys.forEach((k, i) => {
    if (k !== key) return;
    taken++;
    if (taken > least && i + 1 > taken) sizes.push(taken);
  });
  return sizes;
}

/**
 * Takes the oldest pending event of `key` into `cache`. An object with no pending events left
 * has no entry, so that "nothing pending" has one representation and equal states fingerprint
 * equally. The kind's order loses the event's place; an event taken ahead of others marks
 * those as arrived.
 */
export function takeEvent(world: KubeWorld, cache: string, key: ObjectKey): KubeWorld {
  const pending = pendingIn(world, cache);
  const events = pending?.get(key);
  if (!pending || !events || events.isEmpty()) return world;
  const event = events.first()!;
  const rest = events.shift();
  let next = world;
  const kind = kindOfKey(key);
  const entry = ordersIn(world, cache)?.get(kind);
  if (entry !== undefined) {
    const at = entry.keys.indexOf(key);
    next = withOrder(next, cache, kind, entry.keys.delete(at), Math.max(entry.arrived, at + 1) - 1);
  }
  next = withPending(next, cache, rest.isEmpty() ? pending.delete(key) : pending.set(key, rest));
  const objects = cacheIn(next, cache) ?? Map<ObjectKey, KubeObject>();
  return withCache(next, cache, event.type === 'DELETED' ? objects.delete(key) : objects.set(key, event.object));
}

/** Drops every pending event of `cache` (a relist replaces them). */
export function dropPending(world: KubeWorld, cache: string): KubeWorld {
  return withOrders(withPending(world, cache, Map<ObjectKey, List<WatchEvent>>()), cache, undefined);
}

export function enqueue(world: KubeWorld, controller: string, keys: Iterable<ObjectKey>): KubeWorld {
  const queued = queueIn(world, controller);
  const next = withKeys(queued ?? Set<ObjectKey>(), keys);
  return next === queued ? world : withQueue(world, controller, next);
}

/** `queue` with `keys` added. (Most calls add one key, often one already queued: Set.add gives back the same set then.) */
function withKeys(queue: Set<ObjectKey>, keys: Iterable<ObjectKey>): Set<ObjectKey> {
  return Array.isArray(keys) && keys.length === 1 ? queue.add(keys[0] as ObjectKey) : queue.union(keys);
}

/**
 * `world` with `manager`'s pending events, order and (unless undefined) cache set, then each
 * controller's keys queued, as withPending, withOrders, withCache and enqueue in turn leave it,
 * in one copy of the world: a catch-up's outcome applied (catchUps.ts), half of a search's steps.
 */
export function withCatchUp(
  world: KubeWorld,
  manager: string,
  pending: Map<ObjectKey, List<WatchEvent>>,
  orders: Map<string, WatchOrder> | undefined,
  cache: Map<ObjectKey, KubeObject> | undefined,
  enqueued: readonly (readonly [controller: string, keys: readonly ObjectKey[]])[],
): KubeWorld {
  const values = valuesOf(world);
  values[slotOf(world, PENDING, manager)] = pending;
  values[slotOf(world, ORDER, manager)] = orderField(orders);
  if (cache !== undefined) values[slotOf(world, CACHE, manager)] = cache;
  for (let i = 0; i < enqueued.length; i++) {
    const [controller, keys] = enqueued[i];
    const q = slotOf(world, QUEUE, controller);
    values[q] = withKeys(values[q] as Set<ObjectKey>, keys);
  }
  return withValues(world, values);
}

export function cacheOf(world: KubeWorld, cache: string): Map<ObjectKey, KubeObject> {
  return cacheIn(world, cache) ?? Map();
}
