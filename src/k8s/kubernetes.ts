// A Kubernetes environment for a model: API servers, controller managers with their caches, and
// controllers, wired into the model's state through its `world` field. It turns them into checker actions
// (cache catch-up steps and reconcile steps), answers requests for other actors (such as a CLI
// tool), builds initial states with caches at every lag, and checks the API server's own rules.
import { List, Map, Set } from 'immutable';
import {
  action,
  actionProperty,
  invariant,
  symmetry,
  weakFairness,
  type Symmetry,
  type Action,
  type Fairness,
  type Property,
  type StepEvent,
} from '../engine/model.ts';
import {
  FOREGROUND_FINALIZER,
  get,
  ORPHAN_FINALIZER,
  WatchEvent,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type ApiServer,
  type KindRules,
  type Validator,
} from './apiServer.ts';
import { freshIn } from './identities.ts';
import { instanceNames, renameWorld, stringRenaming } from './symmetry.ts';
import { describeAnswer, describeRequest, worldView } from './describe.ts';
import {
  StepContext,
  type ControllerConfig,
  type HandlerEvent,
  type ManagerConfig,
  type ServerContext,
  type StepOutcome,
} from './controller.ts';
import { isDeleting, keyOf, type KubeObject, type ObjectKey } from './object.ts';
import { garbageCollectorAction, garbageCollectorFinalizeAction } from './garbageCollector.ts';
import { graphCollectorActions, type GraphCollectorConfig } from './gcGraph.ts';
import { applyCatchUp, CatchUps } from './catchUps.ts';
import { checkWiring, unknownStepError, uncachedKindError, wiringError, wrongKindQueuedError } from './wiring.ts';
import { WiringCoverage } from './wiringCoverage.ts';
import { contentKey } from './contentKey.ts';
import {
  newWorld,
  type KubeWorld,
  type LocalValue,
  Reconcile,
  withOrder,
  cacheIn,
  cacheOf,
  dropPending,
  enqueue,
  headOf,
  isHead,
  kindOfKey,
  nextEvent,
  ordersIn,
  pendingIn,
  popSizes,
  queueIn,
  reconcilesIn,
  sameServers,
  sendEvent,
  serverIn,
  takeEvent,
  withCache,
  withQueue,
  withReconciles,
  withServer,
  withWritten,
  writtenIn,
  withOrders,
  withPending,
} from './world.ts';

/**
 * A request a step sent, as its StepEvent's `detail` carries it: the server it went to, what was
 * asked (a GET has no body) and the answer. What checking a recorded run against the model
 * compares (src/k8s/audit/traceValidation.ts).
 */
export interface RequestDetail {
  readonly server: string;
  readonly request: ApiRequest | { readonly verb: 'GET'; readonly key: ObjectKey };
  readonly response: ApiResponse;
}

/** Where the Kubernetes world sits in the model's state: how to read it, and how to put a new one in. */
export interface WorldField<S> {
  readonly get: (s: S) => KubeWorld;
  readonly set: (s: S, world: KubeWorld) => S;
}

export interface KubernetesConfig<S> {
  /** Where the world sits in the model's state, e.g. `{ get: (s) => s.kube, set: (s, w) => s.set('kube', w) }`. */
  readonly world: WorldField<S>;
  readonly servers: readonly string[];
  readonly managers: readonly ManagerConfig[];
  readonly controllers: readonly ControllerConfig<S>[];
  /** Faults the search may inject, each bounded; none by default. */
  readonly faults?: KubeFaults;
  /**
   * Servers on which kube-controller-manager's garbage collector runs: it deletes an object whose
   * owners (ownerReferences) are all gone, in the background (`<server>GC.delete`), with weak
   * fairness. Off by default: without it ownerReferences are only data.
   */
  readonly garbageCollector?: readonly (string | GraphCollectorConfig)[];
  /** Kinds without a namespace (Nodes, ClusterRoles, ...): the garbage collector looks their owners up cluster-wide. */
  readonly clusterScoped?: readonly string[];
  /**
   * Kinds whose CustomResourceDefinition declares no status subresource: an update (PUT) of one
   * writes its status too, and a status change is a new generation. By default every kind has
   * one, and an update keeps the stored status.
   */
  readonly withoutStatusSubresource?: readonly string[];
  /**
   * Whether objects carry UIDs: each create gives metadata.uid a value (`Kind/name#n`) that
   * nothing in the state holds, so that an object created again under its name is told apart
   * from the old one (by a precondition, an ownerReference's uid, the garbage collector). Off by
   * default: uids are '' and an object is known by its key alone (a state space without the
   * incarnations). The assumptions say which.
   */
  readonly uids?: boolean;
  /** Per kind: its validation (a 422 Invalid for a write it refuses), as a CRD schema, a CEL rule or a webhook would. */
  readonly validation?: Readonly<globalThis.Record<string, Validator>>;
}

/**
 * Faults as bounded nondeterminism, after Sieve's three classes of controller bugs: crashes at
 * intermediate states, stale state, and unobserved states.
 */
export interface KubeFaults {
  /** How many controller-manager crashes and restarts in all, at any point between steps. */
  readonly restarts?: number;
  /**
   * At most this many watch events wait per cache and object: a write past it makes that cache
   * take in its oldest one at once (with its handlers), so a cache is never more than this many
   * versions behind. Unbounded by default.
   */
  readonly cacheLagBound?: number;
  /** Informers may also take all of an object's pending events at once (`<manager>Cache.syncLatest`). */
  readonly coalesce?: boolean;
  /**
   * Periodic resync (`<manager>Cache.resync`): at any time, an informer hands a cached object
   * with no event pending to its handlers again, as an update from itself to itself with the
   * same resourceVersion (client-go's Sync delta, controller-runtime's SyncPeriod). Unbounded:
   * real resyncs come every sync period for ever.
   */
  readonly resync?: boolean;
  /**
   * Time travel (Sieve's stale-state fault): each server has a second API server in front of
   * the same storage (`<server>Replica`) whose watch cache lags behind, object by object as a
   * manager's cache does, and catches up (weakly fair); a restart (from the `restarts` budget)
   * may reconnect a manager to it (`<manager>.restartStale`): the cache is relisted from that
   * lagging view, older than what the manager saw before, and then catches up through its events.
   */
  readonly timeTravel?: boolean;
}

/** An object's versions before the search starts, oldest first; the last is the stored one. */
export interface ObjectHistory {
  readonly versions: readonly KubeObject[];
  /**
   * Whether the controllers have processed the last version. If not, a cache that already
   * holds it has its watchers' keys queued; one that does not will queue them on catch-up.
   */
  readonly reconciled: boolean;
}

export interface InitialWorldOptions {
  /** `any`: every combination of cache positions in each history; `none`: caches current. */
  readonly cacheLag: 'any' | 'none';
}

const NONE: readonly ObjectKey[] = [];
const NO_CONTROLLERS: readonly never[] = [];

export class Kubernetes<S> {
  // biome-ignore lint/suspicious/noExplicitAny: each action has its own parameter type; a list of them can name none
  readonly actions: readonly Action<S, any>[];
  private readonly views = new globalThis.Map<string, globalThis.Map<KubeObject, KubeObject>>();
  /** In-flight reconciles by step and locals' content (see reconcile). */
  private readonly reconciles = new globalThis.Map<string, Reconcile>();
  /** The API server's rules as properties, to check in every model that uses this library. */
  readonly properties: readonly Property<S>[];
  /**
   * Weak fairness, per object key, of every informer's catch-up and of every controller's
   * reconcile steps: a cache with an event pending for an object eventually takes it in, and a
   * worker eventually takes a queued key and carries its reconcile through. This is what
   * client-go and controller-runtime promise while their processes run.
   */
  readonly fairness: readonly Fairness[];
  /**
   * What the environment assumes, in plain words, for a variant's `assumptions`: the faults the
   * search may inject, a bound on cache lag, and whether a garbage collector runs (without one,
   * ownerReferences are only data).
   */
  readonly assumptions: readonly string[];
  /** Cache catch-ups done so far, to apply again where they meet the same values (catchUps.ts). */
  private readonly catchUps = new CatchUps();
  /** Each manager's controllers, computed once: the cache-sync step reads them on every call. */
  private readonly controllersByManager = new globalThis.Map<string, readonly ControllerConfig<S>[]>();
  /**
   * Every cache the watch events fan out to: the managers', then, with the timeTravel fault, one
   * lagging API server per server (`<server>Replica`, every kind the server's managers hold, no controllers).
   */
  private readonly followers: readonly ManagerConfig[];
  /** Each server's lagging API server, with the timeTravel fault. */
  private readonly replicas = new globalThis.Map<string, ManagerConfig>();
  /** The informers of the garbage collectors that keep a graph (`<server>GC`), which start with nothing observed. */
  private readonly graphInformers: readonly ManagerConfig[];
  /** Each controller's index in the config, for its coverage (wiringCoverage.ts). */
  private readonly controllerIndex = new globalThis.Map<ControllerConfig<S>, number>();
  /**
   * What a search can tell of the wiring only by running it: watches that never queue a key,
   * reads that never find their object. For a variant's `coverage`: a complete search warns of them.
   */
  readonly coverage: WiringCoverage;
  /** Each kind's rules, made once (the requests ask for them on every write). */
  private readonly kindRules = new globalThis.Map<string, KindRules>();
  /** The state the request under way is made in, for `serverContext.fresh` (set around the call). */
  private requestState: S | undefined;
  /** What requests ask of the environment (ServerContext); one object, reused by every request. */
  private readonly serverContext: ServerContext = {
    fresh: () => freshIn(this.requestState, this.config.uids === true),
    rules: (kind) => this.rulesOf(kind),
  };

  constructor(readonly config: KubernetesConfig<S>) {
    checkWiring(config.servers, config.managers, config.controllers as readonly ControllerConfig<unknown>[]);
    for (const { server } of collectorsOf(config)) {
      if (!config.servers.includes(server)) {
        throw wiringError(
          `garbageCollector names API server ${server}, which is not one of the servers (${config.servers.join(', ')})`,
          `name one of ${config.servers.join(', ')}`,
        );
      }
    }
    config.controllers.forEach((c, i) => {
      this.controllerIndex.set(c, i);
    });
    this.coverage = new WiringCoverage(config.controllers as readonly ControllerConfig<unknown>[], () => this.catchUps.clear());
    for (const m of config.managers) {
      this.controllersByManager.set(
        m.name,
        config.controllers.filter((c) => c.manager === m.name),
      );
    }
    const faults = config.faults ?? {};
    const timeTravel = faults.timeTravel === true && (faults.restarts ?? 0) > 0;
    if (faults.timeTravel === true && !timeTravel) {
      throw wiringError(
        'faults.timeTravel is set but faults.restarts is 0',
        'give restarts a budget: a time travel is a restart that lists from a lagging API server',
      );
    }
    if (timeTravel) {
      for (const server of config.servers) {
        const kinds = [...new globalThis.Set(config.managers.filter((m) => m.server === server).flatMap((m) => m.kinds))];
        if (kinds.length > 0) this.replicas.set(server, { name: `${server}Replica`, server, kinds, readByModel: true });
      }
    }
    const graphs = collectorsOf(config).filter((g): g is GraphCollectorConfig => 'kinds' in g);
    this.graphInformers = graphs.map((g) => ({ name: `${g.server}GC`, server: g.server, kinds: g.kinds, readByModel: true }));
    this.followers = [...config.managers, ...this.replicas.values(), ...this.graphInformers];
    for (const g of this.graphInformers) this.controllersByManager.set(g.name, []);
    for (const r of this.replicas.values()) this.controllersByManager.set(r.name, []);
    const clusterScoped = (kind: string) => config.clusterScoped?.includes(kind) === true;
    // The caches that take events in by `<name>Cache.sync` (a collector's informers observe instead).
    const synced = [...config.managers, ...this.replicas.values()];
    this.actions = [
      ...synced.map((m) => this.syncAction(m)),
      ...(faults.coalesce ? config.managers.map((m) => this.coalesceAction(m)) : []),
      ...(faults.resync ? config.managers.map((m) => this.resyncAction(m)) : []),
      ...config.controllers.flatMap((c) => this.controllerActions(c)),
      ...((faults.restarts ?? 0) > 0 ? config.managers.map((m) => this.restartAction(m)) : []),
      ...(timeTravel ? config.managers.map((m) => this.restartStaleAction(m)) : []),
      ...graphs.flatMap((g) => graphCollectorActions(this, g, clusterScoped)),
      ...collectorsOf(config)
        .filter((g) => !('kinds' in g))
        .flatMap(({ server }) => [garbageCollectorAction(this, server), garbageCollectorFinalizeAction(this, server)]),
    ];
    this.properties = apiRules(config.world, config.servers);
    this.assumptions = environmentAssumptions(config);
    // Per parameter: per object key, for informers, workers and the garbage collector alike.
    this.fairness = [
      ...synced.map((m) => weakFairness(`${m.name}Cache`, [`${m.name}Cache.sync`], { perParameter: true })),
      ...config.controllers.map((c) =>
        weakFairness(
          c.name,
          this.actionsOf(c.name).map((a) => a.name),
          { perParameter: true },
        ),
      ),
      ...collectorsOf(config).map((g) =>
        'kinds' in g
          ? weakFairness(`${g.server}GC`, [`${g.server}GC.observe`, `${g.server}GC.attemptToDelete`, `${g.server}GC.finalize`], {
              perParameter: true,
            })
          : weakFairness(`${g.server}GC`, [`${g.server}GC.delete`, `${g.server}GC.finalize`], { perParameter: true }),
      ),
    ];
  }

  /** The actions of one controller: its reconcile start and its later steps. */
  // biome-ignore lint/suspicious/noExplicitAny: each action has its own parameter type; a list of them can name none
  actionsOf(controller: string): readonly Action<S, any>[] {
    return this.actions.filter((a) => a.name.startsWith(`${controller}.`));
  }

  world(s: S): KubeWorld {
    return this.config.world.get(s);
  }

  /** The object as `server` stores it now. */
  stored(s: S, server: string, key: ObjectKey): KubeObject | undefined {
    return serverIn(this.world(s), server)?.objects.get(key);
  }

  /** Every object of `kind` that `server` stores now, in name order: for properties (a List call straight to the server). */
  list(s: S, server: string, kind: string): readonly KubeObject[] {
    const srv = serverIn(this.world(s), server);
    if (srv === undefined) throw new Error(`no API server named ${server} (the servers: ${this.config.servers.join(', ')})`);
    return ofKind(srv.objects, kind);
  }

  /** The object as `manager`'s cache holds it now (what its controllers' client.Get reads). */
  cached(s: S, manager: string, key: ObjectKey): KubeObject | undefined {
    return cacheIn(this.world(s), manager)?.get(key);
  }

  /** No watch event waiting for any cache, no key queued, no reconcile under way: every controller is idle. */
  idle(s: S): boolean {
    const w = this.world(s);
    return (
      this.config.managers.every((m) => (pendingIn(w, m.name)?.size ?? 0) === 0) &&
      this.config.controllers.every((c) => (queueIn(w, c.name)?.size ?? 0) === 0 && (reconcilesIn(w, c.name)?.size ?? 0) === 0)
    );
  }

  /**
   * Sends a request to `server` directly (no cache), as a CLI tool does, fanning out its event.
   * Pass the step's `events` (the third argument of an action's `next`) so that traces show the
   * request and the server's answer.
   */
  request(
    s: S,
    server: string,
    call: (srv: ApiServer, context: ServerContext) => ApiResult,
    events?: StepEvent[],
  ): { state: S; response: ApiResponse } {
    const world = this.world(s);
    const srv = serverIn(world, server);
    if (!srv) throw new Error(`no API server named ${server}`);
    this.requestState = s;
    let result: ApiResult;
    try {
      result = call(srv, this.serverContext);
    } finally {
      this.requestState = undefined;
    }
    events?.push({
      kind: 'request',
      to: serverParticipant(server),
      request: describeRequest(result.request),
      answer: describeAnswer(result.request, result.response),
      ok: result.response.code < 300,
      detail: { server, request: result.request, response: result.response } satisfies RequestDetail,
    });
    let next = withServer(world, server, result.server);
    if (result.event) {
      for (const m of this.followers) {
        if (m.server !== server || !m.kinds.includes(result.event.object.kind)) continue;
        const event = m.view ? result.event.set('object', this.viewOf(m, result.event.object)) : result.event;
        if (this.invisible(next, m, event)) continue;
        next = sendEvent(next, [m.name], event);
        const bound = this.config.faults?.cacheLagBound;
        if (bound !== undefined) {
          // The informer takes in what it must, in its own order, until the object is within the bound.
          const key = keyOf(event.object);
          while ((pendingIn(next, m.name)?.get(key)?.size ?? 0) > bound) {
            const head = headOf(next, m.name, event.object.kind)!;
            next = this.pop(next, m, head, popSizes(next, m.name, head)[0], events);
          }
        }
      }
    }
    return { state: this.config.world.set(s, next), response: result.response };
  }

  /**
   * Interchangeable objects, for a variant's `symmetry`: `instances` are tuples of keys, one
   * tuple per instance (a ZookeeperCluster with its ConfigMap, StatefulSet and PVC), the same
   * position playing the same part in each; the search folds states that differ only by which
   * instance is which (symmetry.ts). `renameRest(s, rename)` renames the model's own fields
   * outside the world (rename maps a key, a name or a UID to its image; other strings to
   * themselves); without it they are kept as they are. The controllers, actors and properties
   * must treat the instances alike: the engine trusts the declaration, as TLC trusts SYMMETRY.
   */
  symmetry(
    name: string,
    instances: readonly (readonly ObjectKey[])[],
    renameRest?: (s: S, rename: (x: string) => string) => S,
  ): Symmetry<S> {
    instanceNames(instances);
    const ids = instances.map((_, i) => i);
    const lens = this.config.world;
    // The engine calls `rename` with one `to` per permutation: each one's string table is made once.
    const tables = new WeakMap<(i: number) => number, (x: string) => string>();
    return symmetry<S, number>(name, ids, (s, to) => {
      let r = tables.get(to);
      if (r === undefined) {
        r = stringRenaming(instances, to);
        tables.set(to, r);
      }
      const rest = renameRest === undefined ? s : renameRest(s, r);
      return lens.set(rest, renameWorld(lens.get(rest), r));
    });
  }

  /** A kind's rules in this environment: its status subresource and its validation. */
  rulesOf(kind: string): KindRules {
    let rules = this.kindRules.get(kind);
    if (rules === undefined) {
      rules = {
        ...(this.config.withoutStatusSubresource?.includes(kind) ? { writesStatus: true } : {}),
        ...(this.config.validation?.[kind] !== undefined ? { validate: this.config.validation[kind] } : {}),
      };
      this.kindRules.set(kind, rules);
    }
    return rules;
  }

  /** A GET straight from `server` (no cache): a read, which changes nothing. */
  get(s: S, server: string, key: ObjectKey, events?: StepEvent[]): ApiResponse {
    const srv = serverIn(this.world(s), server);
    if (!srv) throw new Error(`no API server named ${server}`);
    const response = get(srv, key);
    events?.push({
      kind: 'request',
      to: serverParticipant(server),
      request: `GET ${key}`,
      answer: 'reason' in response ? `404 NotFound: ${response.reason}` : '200 OK',
      ok: response.code === 200,
      detail: { server, request: { verb: 'GET', key }, response } satisfies RequestDetail,
    });
    return response;
  }

  /**
   * How the Kubernetes part of a state reads in a trace: per subject (`source Cluster/c1`,
   * `capi cache Cluster/c1`, `clusterController queue`, ...) its fields, so that a trace shows
   * `source Cluster/c1 metadata.finalizers: [] -> [x]`. For a variant's `view`.
   */
  view(s: S) {
    return worldView(this.world(s));
  }

  /**
   * What every variant of a model in this environment takes from it, to spread into the variant:
   * the fairness the library promises, the wiring coverage, and the view that traces read
   * (`{ ...kube.variantFields, properties: [...mine, ...kube.properties], ... }`).
   */
  get variantFields(): {
    readonly fairness: readonly Fairness[];
    readonly coverage: WiringCoverage;
    readonly view: (s: S) => ReturnType<typeof worldView>;
  } {
    return { fairness: this.fairness, coverage: this.coverage, view: (s: S) => this.view(s) };
  }

  /**
   * The in-flight reconcile at `step` with `locals`, made once per content: a controller's step
   * leads to the same next step and locals from many states (those that differ elsewhere), and
   * the one Reconcile then carries its digest (kept once a state holding it is new) where a new
   * one would be built, a Map of its locals made and both digested. Bounded as the views are.
   */
  private reconcile(step: string, locals: Readonly<globalThis.Record<string, LocalValue>>): Reconcile {
    const content = contentKey(locals);
    if (content === undefined) return Reconcile({ step, locals: Map(locals) });
    const key = `${step}\0${content}`;
    let r = this.reconciles.get(key);
    if (r === undefined) {
      if (this.reconciles.size >= 1 << 16) this.reconciles.clear();
      r = Reconcile({ step, locals: Map(locals) });
      this.reconciles.set(key, r);
    }
    return r;
  }

  /**
   * `m`'s view of a stored object, made once per object: every state that holds the same
   * stored version then holds the same view, which saves memory and makes equality checks
   * and fingerprints of the view cheap.
   */
  private viewOf(m: ManagerConfig, obj: KubeObject): KubeObject {
    let views = this.views.get(m.name);
    if (!views) {
      views = new globalThis.Map();
      this.views.set(m.name, views);
    }
    let v = views.get(obj);
    if (v === undefined) {
      if (views.size >= 1 << 16) views.clear();
      v = m.view!(obj);
      views.set(obj, v);
    }
    return v;
  }

  /**
   * Whether `event` would change nothing `m` sees: an update whose view equals the last one
   * sent to `m` for that object, and that every watch of `m` on the kind filters out.
   * Predicates are evaluated here exactly as they would be when the cache takes the event in:
   * on the view the cache would hold just before it (the last one sent).
   */
  private invisible(world: KubeWorld, m: ManagerConfig, event: WatchEvent): boolean {
    if (event.type !== 'MODIFIED') return false;
    const key = keyOf(event.object);
    const old = pendingIn(world, m.name)?.get(key)?.last()?.object ?? cacheIn(world, m.name)?.get(key);
    if (old === undefined || !old.equals(event.object)) return false;
    const e: HandlerEvent = { type: 'MODIFIED', old, object: event.object };
    return this.config.controllers.every(
      (c) =>
        c.manager !== m.name ||
        (c.eventFilter !== undefined && !c.eventFilter(e)) ||
        c.watches.every((w) => w.kind !== event.object.kind || (w.predicate !== undefined && !w.predicate(e))),
    );
  }

  /** Every initial world the histories allow, with caches at every lag or none. */
  initialWorlds(histories: Readonly<globalThis.Record<string, readonly ObjectHistory[]>>, options: InitialWorldOptions): KubeWorld[] {
    return this.coverage.initialWorlds(() => this.buildInitialWorlds(histories, options));
  }

  private buildInitialWorlds(
    histories: Readonly<globalThis.Record<string, readonly ObjectHistory[]>>,
    options: InitialWorldOptions,
  ): KubeWorld[] {
    const { controllers } = this.config;
    const managers = this.followers;
    for (const server of Object.keys(histories)) {
      if (!this.config.servers.includes(server)) {
        throw wiringError(
          `initialWorlds has objects for API server ${server}, which is not one of the servers (${this.config.servers.join(', ')})`,
          `key the histories by one of ${this.config.servers.join(', ')}`,
        );
      }
    }
    let base = newWorld(
      this.config.servers,
      managers.map((m) => m.name),
      controllers.map((c) => c.name),
      this.config.faults?.restarts ?? 0,
      controllers.filter((c) => c.waitForOwnWrites === true).map((c) => c.name),
      this.graphInformers.map((g) => g.server),
    );
    // Each (cache, object) pair: where in the object's history the cache stands.
    const slots: { manager: ManagerConfig; history: ObjectHistory; versions: KubeObject[] }[] = [];
    for (const [server, list] of Object.entries(histories)) {
      for (const history of list) {
        const versions = numbered(history.versions, this.config.uids === true);
        const last = versions[versions.length - 1];
        const srv = serverIn(base, server)!;
        base = withServer(base, server, srv.set('objects', srv.objects.set(keyOf(last), last)));
        for (const m of managers) {
          if (m.server === server && m.kinds.includes(last.kind)) slots.push({ manager: m, history, versions });
        }
      }
    }
    let worlds = [base];
    for (const { manager, history, versions } of slots) {
      const n = versions.length;
      // A processed object has been in every cache at least once (it was reconciled through it).
      const bound = this.config.faults?.cacheLagBound;
      // A collector that keeps a graph starts with nothing observed (kube-controller-manager just
      // started): its graph is built from its informers' events, all pending.
      const fresh = this.graphInformers.includes(manager);
      const lowest = fresh
        ? 0
        : Math.max(options.cacheLag === 'none' ? n : history.reconciled ? 1 : 0, bound === undefined ? 0 : n - bound);
      const highest = fresh ? 0 : n;
      const next: KubeWorld[] = [];
      for (const w of worlds) {
        for (let pos = lowest; pos <= highest; pos++) next.push(this.placeCache(w, manager, history, versions, pos));
      }
      worlds = next;
    }
    // The histories say each object's order, not how the writes to objects of one kind
    // interleaved: where caches lag on two of them, every interleaving is an initial state, the
    // same one for every cache of the server (its watch order is the write order).
    const out = worlds.flatMap((w) => this.interleaved(w));
    return out.length === worlds.length ? worlds : dedupe(out);
  }

  /**
   * `w` with each (cache, kind)'s pending events ordered as one interleaving of the writes, for
   * every interleaving: per server and kind, a merge of each object's last versions (as many as
   * its most lagging cache has pending), projected onto each cache.
   */
  private interleaved(w: KubeWorld): KubeWorld[] {
    let worlds = [w];
    for (const server of this.config.servers) {
      const caches = this.followers.filter((m) => m.server === server).map((m) => m.name);
      const kinds = new globalThis.Map<string, globalThis.Map<ObjectKey, number>>();
      for (const cache of caches) {
        for (const [key, events] of pendingIn(w, cache) ?? Map<ObjectKey, List<WatchEvent>>()) {
          const byKey = kinds.get(kindOfKey(key)) ?? new globalThis.Map<ObjectKey, number>();
          byKey.set(key, Math.max(byKey.get(key) ?? 0, events.size));
          kinds.set(kindOfKey(key), byKey);
        }
      }
      for (const [kind, longest] of kinds) {
        if (longest.size < 2) continue;
        const all = List([...longest].flatMap(([key, n]) => Array.from({ length: n }, () => key)));
        worlds = worlds.flatMap((x) =>
          interleavings(all).map((merge) =>
            caches.reduce((acc, cache) => {
              // This cache's pending events of each object are the last ones of the merge's.
              const seenOf = new globalThis.Map<ObjectKey, number>();
              const keys = merge.filter((key) => {
                const i = (seenOf.get(key) ?? 0) + 1;
                seenOf.set(key, i);
                return i > longest.get(key)! - (pendingIn(acc, cache)?.get(key)?.size ?? 0);
              });
              return keys.isEmpty() ? acc : withOrder(acc, cache, kind, keys, 0);
            }, x),
          ),
        );
      }
    }
    return worlds;
  }

  private placeCache(w: KubeWorld, m: ManagerConfig, history: ObjectHistory, all: KubeObject[], pos: number): KubeWorld {
    const versions = m.view ? all.map(m.view) : all;
    const key = keyOf(versions[0]);
    let world = w;
    if (pos > 0) world = withCache(world, m.name, cacheOf(world, m.name).set(key, versions[pos - 1]));
    for (let i = pos; i < versions.length; i++) {
      // The same events, and the same filtering, as the writes that made these versions.
      const event = WatchEvent({ type: i === 0 ? 'ADDED' : 'MODIFIED', object: versions[i] });
      if (!this.invisible(world, m, event)) world = sendEvent(world, [m.name], event);
    }
    if (!history.reconciled && pos === versions.length) {
      // The cache took in the last version but no worker has reconciled it yet.
      const last = versions[pos - 1];
      for (const c of this.config.controllers) {
        if (c.manager !== m.name) continue;
        c.watches.forEach((watch, wi) => {
          if (watch.kind !== last.kind) return;
          const keys = watch.map ? [...watch.map(last, cacheOf(world, m.name))] : [key];
          if (keys.length === 0) return;
          this.queueing(c, wi, keys);
          world = enqueue(world, c.name, keys);
        });
      }
    }
    return world;
  }

  /**
   * `<manager>Cache.sync(key)`: the informer pops the object first in its kind's order and the
   * cache takes in its oldest pending event (or, where more have certainly arrived, all of
   * those), running the handlers on each. `sync(key, n events)`: the DeltaFIFO pops it with `n`
   * of its events, some written after another object's pending ones, the ones that had reached
   * it by then (see WatchOrder); only where objects of one kind have events pending in one cache.
   */
  private syncAction(m: ManagerConfig): Action<S, string> {
    const lens = this.config.world;
    const parse = (p: string) => {
      const at = p.lastIndexOf('#');
      return at < 0 ? { key: p, count: 0 } : { key: p.slice(0, at), count: Number(p.slice(at + 1)) };
    };
    return action<S, string>(`${m.name}Cache.sync`, {
      doc: `client-go informer of the ${m.name} manager: takes the next watch event of an object into the cache and runs the watch handlers.`,
      params: (s) => {
        const world = lens.get(s);
        const pending = pendingIn(world, m.name);
        if (pending === undefined || pending.size === 0) return NONE;
        const kinds = ordersIn(world, m.name);
        const out: string[] = [];
        if (kinds === undefined) {
          pending.forEach((_, key) => {
            out.push(key);
          });
          return out;
        }
        pending.forEach((_, key) => {
          const entry = kinds.get(kindOfKey(key));
          if (entry === undefined) out.push(key);
          else if (entry.keys.first() === key) {
            out.push(key);
            const sizes = popSizes(world, m.name, key);
            for (let i = 1; i < sizes.length; i++) out.push(`${key}#${sizes[i]}`);
          }
        });
        return out;
      },
      formatParam: (p) => {
        const { key, count } = parse(p);
        return count === 0 ? key : `${key}, ${count} events`;
      },
      next: (s, p, events) => {
        const { key, count } = parse(p);
        const world = lens.get(s);
        if (!nextEvent(world, m.name, key) || !isHead(world, m.name, key)) return undefined;
        const sizes = popSizes(world, m.name, key);
        if (count !== 0 && !sizes.slice(1).includes(count)) return undefined;
        return lens.set(s, this.catchUp(world, m, key, count === 0 ? sizes[0] : count, false, events));
      },
    });
  }

  /** A DeltaFIFO pop: `count` events of `key` taken in one by one, the handlers run on each (processDeltas). */
  private pop(
    world: KubeWorld,
    m: ManagerConfig,
    key: ObjectKey,
    count: number,
    events?: StepEvent[],
    enqueued?: [string, ObjectKey[]][],
  ): KubeWorld {
    let next = world;
    for (let i = 0; i < count; i++) next = this.deliver(next, m, key, 1, events, enqueued);
    return next;
  }

  /**
   * `<manager>Cache.syncLatest(key)` (fault: coalesced events): the cache takes in every pending
   * event of one object at once, skipping the versions between, and its handlers see one event
   * from the version it held to the latest, as after a relist or a compacted watch.
   */
  private coalesceAction(m: ManagerConfig): Action<S, ObjectKey> {
    const lens = this.config.world;
    return action<S, ObjectKey>(`${m.name}Cache.syncLatest`, {
      doc: `Fault: the ${m.name} informer takes all of an object's pending watch events at once; the handlers see only the first and last versions.`,
      params: (s) => {
        const world = lens.get(s);
        const pending = pendingIn(world, m.name);
        if (pending === undefined || pending.size === 0) return NONE;
        const keys: ObjectKey[] = [];
        for (const [k, l] of pending) if (l.size >= 2 && isHead(world, m.name, k)) keys.push(k);
        return keys;
      },
      next: (s, key, events) => {
        const world = lens.get(s);
        const n = pendingIn(world, m.name)?.get(key)?.size ?? 0;
        if (n < 2 || !isHead(world, m.name, key)) return undefined;
        return lens.set(s, this.catchUp(world, m, key, n, true, events));
      },
    });
  }

  /**
   * `<manager>Cache.resync(key)` (fault: periodic resync): the handlers see the cached object
   * again, unchanged. client-go's DeltaFIFO.Resync queues a Sync delta only for an object with
   * no delta pending (delta_fifo.go syncKeyLocked). Offered only where it queues a key that is
   * not queued already: otherwise the step would change nothing.
   */
  private resyncAction(m: ManagerConfig): Action<S, ObjectKey> {
    const lens = this.config.world;
    const resynced = (world: KubeWorld, key: ObjectKey, queued?: string[]) => {
      const cached = cacheIn(world, m.name)?.get(key);
      if (cached === undefined || pendingIn(world, m.name)?.has(key)) return world;
      return this.runHandlers(world, m, { type: 'MODIFIED', old: cached, object: cached, resync: true }, queued);
    };
    return action<S, ObjectKey>(`${m.name}Cache.resync`, {
      doc: `Fault (periodic resync): the ${m.name} informer hands a cached object to its handlers again, unchanged (same resourceVersion).`,
      params: (s) => {
        const world = lens.get(s);
        const cache = cacheIn(world, m.name);
        if (cache === undefined) return NONE;
        const keys: ObjectKey[] = [];
        for (const key of cache.keys()) if (queuesMore(world, resynced(world, key), this.config.controllers)) keys.push(key);
        return keys;
      },
      next: (s, key, events) => {
        const world = lens.get(s);
        const queued: string[] = [];
        const next = resynced(world, key, events ? queued : undefined);
        if (!queuesMore(world, next, this.config.controllers)) return undefined;
        events?.push({
          kind: 'note',
          over: this.controllersOf(m).map((c) => c.name),
          text: `${m.name} resyncs ${key}; queues ${queued.join(', ')}`,
        });
        return lens.set(s, next);
      },
    });
  }

  /**
   * A cache catch-up as a step of its own (`sync`, or `syncLatest` when `coalesced`): done once
   * per set of values it reads, and applied again where it meets them (catchUps.ts). A trace's
   * step, which tells its events, is always worked out: the memo keeps none.
   */
  private catchUp(world: KubeWorld, m: ManagerConfig, key: ObjectKey, count: number, coalesced: boolean, events?: StepEvent[]): KubeWorld {
    const pending = pendingIn(world, m.name);
    if (events !== undefined || pending === undefined) {
      return coalesced ? this.deliver(world, m, key, count, events) : this.pop(world, m, key, count, events);
    }
    const cache = cacheIn(world, m.name);
    const order = ordersIn(world, m.name);
    // (One memo for both kinds: a pop of n events runs the handlers n times, a coalesced one once.)
    const at = { pending, manager: m.name, key, count: coalesced ? -count : count, cache, order };
    const known = this.catchUps.find(at);
    if (known !== undefined) return applyCatchUp(world, m.name, known);
    const enqueued: [string, ObjectKey[]][] = [];
    const next = coalesced ? this.deliver(world, m, key, count, undefined, enqueued) : this.pop(world, m, key, count, undefined, enqueued);
    if (next !== world) {
      const outcome = { pending: pendingIn(next, m.name)!, order: ordersIn(next, m.name), cache: cacheIn(next, m.name), enqueued };
      this.catchUps.keep(at, outcome);
    }
    return next;
  }

  /**
   * The cache of `m` takes in the oldest `count` pending events of `key` and runs its
   * controllers' watch handlers once, on the change from the version it held to the last one
   * taken in (for `count` 1, exactly that event). What the handlers queue is also listed in
   * `enqueued`, when given.
   */
  private deliver(
    world: KubeWorld,
    m: ManagerConfig,
    key: ObjectKey,
    count: number,
    events?: StepEvent[],
    enqueued?: [string, ObjectKey[]][],
  ): KubeWorld {
    const old = cacheIn(world, m.name)?.get(key);
    let next = world;
    let last: WatchEvent | undefined;
    for (let i = 0; i < count; i++) {
      last = nextEvent(next, m.name, key);
      next = takeEvent(next, m.name, key);
    }
    if (last === undefined) return world;
    // Several events seen as one: a deletion stays one; otherwise an addition if the cache had
    // nothing, else an update from the held version.
    const type = count === 1 || last.type === 'DELETED' ? last.type : old === undefined ? 'ADDED' : 'MODIFIED';
    const e: HandlerEvent = { type, old, object: last.object };
    const queued: string[] = [];
    next = this.runHandlers(next, m, e, events ? queued : undefined, enqueued);
    if (events) {
      const over = this.controllersOf(m).length > 0 ? this.controllersOf(m).map((c) => c.name) : [`${m.name}Cache`];
      const handlers = queued.length > 0 ? `; queues ${queued.join(', ')}` : '; no handler queues anything';
      const what = count === 1 ? `${type} ${key}` : `${count} events of ${key} at once, seen as ${type}`;
      events.push({ kind: 'note', over, text: `${m.name} cache takes in ${what}${handlers}` });
    }
    return next;
  }

  private controllersOf(m: ManagerConfig): readonly ControllerConfig<S>[] {
    return this.controllersByManager.get(m.name) ?? NO_CONTROLLERS;
  }

  /** Runs the watch handlers of `m`'s controllers on `e`, queueing the keys they map it to. */
  private runHandlers(
    world: KubeWorld,
    m: ManagerConfig,
    e: HandlerEvent,
    queued?: string[],
    enqueued?: [string, ObjectKey[]][],
  ): KubeWorld {
    let next = world;
    const key = keyOf(e.object);
    for (const c of this.controllersOf(m)) {
      if (c.eventFilter && !c.eventFilter(e)) continue;
      const watches = c.watches;
      for (let wi = 0; wi < watches.length; wi++) {
        const w = watches[wi];
        if (w.kind !== e.object.kind || (w.predicate && !w.predicate(e))) continue;
        const keys = w.map ? [...w.map(e.object, cacheOf(next, m.name))] : [key];
        if (keys.length === 0) continue;
        this.queueing(c, wi, keys);
        if (queued) for (const k of keys) queued.push(`${k} for ${c.name}`);
        enqueued?.push([c.name, keys]);
        next = enqueue(next, c.name, keys);
      }
    }
    return next;
  }

  /**
   * Watch `wi` of `c` queues `keys`: each must name an object of the controller's For() kind
   * (a reconcile.Request is a name the controller reads as its own kind), and the watch has
   * queued something in this search (coverage).
   */
  private queueing(c: ControllerConfig<S>, wi: number, keys: readonly ObjectKey[]): void {
    const kind = c.watches[0].kind;
    for (const k of keys) {
      if (typeof k !== 'string' || !(k.length > kind.length && k.charCodeAt(kind.length) === 47 && k.startsWith(kind))) {
        throw wrongKindQueuedError(c.name, c.watches[wi].kind, wi, k, kind);
      }
    }
    this.coverage.watchQueued(this.controllerIndex.get(c)!, wi);
  }

  /**
   * `<manager>.restart` (fault: a crash and restart, while the fault budget lasts): every
   * controller of the manager loses its queue and its reconciles under way, and the cache is
   * rebuilt by listing: it holds every stored object of its kinds as it is now, drops the
   * events it had not taken in, and its handlers see each listed object as ADDED.
   */
  private restartAction(m: ManagerConfig): Action<S, undefined> {
    return action<S>(`${m.name}.restart`, {
      doc: `Fault: the ${m.name} controller manager crashes and restarts; in-memory work is lost and the cache is rebuilt by listing.`,
      next: (s, _p, events) => this.restarted(s, m, undefined, events),
    });
  }

  /**
   * `<manager>.restartStale` (fault: time travel, from the same budget as restarts): as
   * `<manager>.restart`, but the new process reaches the lagging API server of its server
   * (`<server>Replica`): the cache is relisted from that server's watch cache, which may be older
   * than anything the manager saw before, and its pending events are the ones the manager then
   * watches, so that it catches up through them (Sieve's stale-state test: a controller
   * restarted against a paused API server; sieve_server/common.go restartAndreconnectController).
   */
  private restartStaleAction(m: ManagerConfig): Action<S, undefined> {
    const replica = this.replicas.get(m.server)!;
    return action<S>(`${m.name}.restartStale`, {
      doc: `Fault (time travel): the ${m.name} controller manager crashes and restarts against a lagging API server; its cache is relisted from that server's older view.`,
      next: (s, _p, events) => this.restarted(s, m, replica, events),
    });
  }

  /** `s` after `m` restarts, its cache listed from its server now or, for `replica`, from that lagging view. */
  private restarted(s: S, m: ManagerConfig, replica: ManagerConfig | undefined, events?: StepEvent[]): S | undefined {
    const lens = this.config.world;
    let world = lens.get(s);
    if (world.restartsLeft <= 0) return undefined;
    world = world.set('restartsLeft', world.restartsLeft - 1);
    for (const c of this.controllersOf(m)) {
      world = withReconciles(withQueue(world, c.name, Set<ObjectKey>()), c.name, Map<ObjectKey, Reconcile>());
      if (c.waitForOwnWrites) world = withWritten(world, c.name, Map());
    }
    const view = (o: KubeObject) => (m.view ? this.viewOf(m, o) : o);
    const mine = (key: ObjectKey) => m.kinds.includes(kindOfKey(key));
    let listed: Map<ObjectKey, KubeObject>;
    if (replica === undefined) {
      const stored = serverIn(world, m.server)?.objects ?? Map<ObjectKey, KubeObject>();
      listed = stored.filter((o) => m.kinds.includes(o.kind)).map(view);
      world = withCache(dropPending(world, m.name), m.name, listed);
    } else {
      listed = cacheOf(world, replica.name)
        .filter((_, key) => mine(key))
        .map(view);
      const pending = (pendingIn(world, replica.name) ?? Map<ObjectKey, List<WatchEvent>>())
        .filter((_, key) => mine(key))
        .map((list) => list.map((e) => (m.view ? e.set('object', view(e.object)) : e)));
      const orders = ordersIn(world, replica.name)?.filter((_, kind) => m.kinds.includes(kind));
      world = withCache(withOrders(withPending(world, m.name, pending), m.name, orders), m.name, listed);
    }
    const queued: string[] = [];
    for (const o of listed.values()) world = this.runHandlers(world, m, { type: 'ADDED', object: o }, events ? queued : undefined);
    const from = replica === undefined ? '' : ` from the lagging ${replica.name}`;
    events?.push({
      kind: 'note',
      over: this.controllersOf(m).map((c) => c.name),
      text: `${m.name} restarts: work lost, cache relisted${from} (${listed.size} objects); queues ${queued.length > 0 ? queued.join(', ') : 'nothing'}`,
    });
    return lens.set(s, world);
  }

  private controllerActions(c: ControllerConfig<S>): Action<S, ObjectKey>[] {
    const lens = this.config.world;
    const m = this.config.managers.find((x) => x.name === c.manager)!;
    const ci = this.controllerIndex.get(c)!;
    const coverage = this.coverage;
    // Whether m's cache holds a key's kind, by key: asked on every read.
    const cachedKind = new globalThis.Map<ObjectKey, boolean>();
    const checkCached = (key: ObjectKey, what: string): void => {
      let ok = cachedKind.get(key);
      if (ok === undefined) {
        ok = m.kinds.includes(kindOfKey(key));
        if (cachedKind.size >= 1 << 16) cachedKind.clear();
        cachedKind.set(key, ok);
      }
      if (!ok) throw uncachedKindError(c.name, m, kindOfKey(key), what);
    };
    const io = {
      get: (s: S, key: ObjectKey, events?: StepEvent[]) => {
        const response = this.get(s, m.server, key, events);
        coverage.read(ci, key, response.code === 200);
        return response;
      },
      cached: (s: S, key: ObjectKey) => {
        // (A model may ask for a key it does not have, `ref ?? null`: nothing is found, as before.)
        if (typeof key !== 'string') return undefined;
        checkCached(key, `r.cached('${key}')`);
        const found = cacheIn(lens.get(s), m.name)?.get(key);
        coverage.read(ci, key, found !== undefined);
        return found;
      },
      list: (s: S, kind: string) => {
        if (!m.kinds.includes(kind)) throw uncachedKindError(c.name, m, kind, `r.list('${kind}')`);
        return ofKind(cacheIn(lens.get(s), m.name), kind);
      },
      request: (s: S, call: (server: ApiServer, context: ServerContext) => ApiResult, events?: StepEvent[]) => {
        const done = this.request(s, m.server, call, events);
        if (!c.waitForOwnWrites || reconciling === undefined || !('object' in done.response) || done.state === s) return done;
        // A write that changed the store: the next reconcile of this key waits for the cache to take it in.
        const world = lens.get(done.state);
        const written = writtenIn(world, c.name)!;
        const o = done.response.object;
        const objects = (written.get(reconciling) ?? Map<ObjectKey, number>()).set(keyOf(o), o.resourceVersion);
        return { state: lens.set(done.state, withWritten(world, c.name, written.set(reconciling, objects))), response: done.response };
      },
    };
    /** The key whose reconcile is taking a step (for waitForOwnWrites). */
    let reconciling: ObjectKey | undefined;
    /** `world` without `key`'s reconcile. */
    const finished = (world: KubeWorld, key: ObjectKey): KubeWorld => {
      const inFlight = reconcilesIn(world, c.name);
      return inFlight === undefined ? world : withReconciles(world, c.name, inFlight.delete(key));
    };
    const run = (
      s: S,
      key: ObjectKey,
      // biome-ignore lint/suspicious/noExplicitAny: a reconcile's locals are whatever values its steps keep
      locals: Map<string, any>,
      stepName: string,
      step: (r: StepContext<S>) => StepOutcome,
      events: StepEvent[] | undefined,
    ): S => {
      const ctx = new StepContext<S>(s, c.name, key, locals, io, events);
      reconciling = key;
      let outcome: StepOutcome;
      try {
        outcome = step(ctx);
      } finally {
        reconciling = undefined;
      }
      let world = lens.get(ctx.state);
      switch (outcome.kind) {
        case 'goto':
          if (!Object.hasOwn(c.steps, outcome.step)) throw unknownStepError(c.name, stepName, outcome.step, Object.keys(c.steps));
          world = withReconciles(
            world,
            c.name,
            (reconcilesIn(world, c.name) ?? Map<ObjectKey, Reconcile>()).set(
              key,
              // The next step's locals replace these: a reconcile keeps only what its later steps
              // read, so reconciles that differ only in values no step will read are one state.
              this.reconcile(outcome.step, outcome.locals),
            ),
          );
          break;
        case 'done':
          world = finished(world, key);
          break;
        case 'requeue':
          world = enqueue(finished(world, key), c.name, [key]);
          break;
        case 'requeueAfter':
          // workqueue AddAfter: the key waits (as `~key` in the queue) until its delay ends (see `start`).
          world = enqueue(finished(world, key), c.name, [waitingKey(key)]);
          events?.push({
            kind: 'note',
            over: [c.name],
            text: `${c.name}: Reconcile returns RequeueAfter ${outcome.after}, no error: ${key} comes back later`,
          });
          break;
      }
      return lens.set(ctx.state, world);
    };
    const start = action<S, ObjectKey>(`${c.name}.reconcile`, {
      doc: c.docs?.reconcile,
      // A key being reconciled stays queued but is not handed to a second worker (workqueue).
      params: (s) => {
        const w = lens.get(s);
        const queue = queueIn(w, c.name);
        if (queue === undefined || queue.size === 0) return NONE;
        const busy = reconcilesIn(w, c.name);
        const written = c.waitForOwnWrites ? writtenIn(w, c.name) : undefined;
        const keys: ObjectKey[] = [];
        for (const k of queue) {
          // A key waiting for its RequeueAfter delay (`~key`) is offered as such: its delay ends
          // and a worker takes it (with the key, if an event queued it meanwhile: the work
          // queue holds one item per key). Taken as `key`, the delayed add stays and comes later.
          const key = isWaitingKey(k) ? k.slice(1) : k;
          if (busy?.has(key)) continue;
          // Waiting for its own writes: the reconcile is put off (real: RequeueAfter 100ms, Reconcile not run).
          if (written !== undefined && !caughtUp(w, m.name, written.get(key))) continue;
          keys.push(k);
        }
        return keys;
      },
      formatParam: (k) => (isWaitingKey(k) ? `${k.slice(1)}, after its RequeueAfter delay` : k),
      next: (s, param, events) => {
        let w = lens.get(s);
        const queue = queueIn(w, c.name);
        if (queue === undefined || !queue.has(param)) return undefined;
        const key = isWaitingKey(param) ? param.slice(1) : param;
        if (c.waitForOwnWrites) {
          const written = writtenIn(w, c.name)!;
          const mine = written.get(key);
          if (!caughtUp(w, m.name, mine)) return undefined;
          // Every write seen: the record is cleared (consistency store EnsureReady).
          if (mine !== undefined) w = withWritten(w, c.name, written.delete(key));
        }
        const dequeued = lens.set(s, withQueue(w, c.name, param === key ? queue.delete(key) : queue.delete(param).delete(key)));
        return run(dequeued, key, Map(), 'reconcile', c.reconcile, events);
      },
    });
    // The keys in flight at each step, grouped once per reconciles map: the search asks each of
    // the controller's step actions in turn about one state, and they would each walk the map.
    let sortedOf: Map<ObjectKey, Reconcile> | undefined;
    let byStep = new globalThis.Map<string, ObjectKey[]>();
    const inFlightAt = (inFlight: Map<ObjectKey, Reconcile>, step: string): readonly ObjectKey[] => {
      if (inFlight !== sortedOf) {
        sortedOf = inFlight;
        byStep = new globalThis.Map();
        inFlight.forEach((r, k) => {
          const keys = byStep.get(r.step);
          if (keys === undefined) byStep.set(r.step, [k]);
          else keys.push(k);
        });
      }
      return byStep.get(step) ?? NONE;
    };
    const later = Object.entries(c.steps).map(([name, step]) =>
      action<S, ObjectKey>(`${c.name}.${name}`, {
        doc: c.docs?.[name],
        params: (s) => {
          const inFlight = reconcilesIn(lens.get(s), c.name);
          if (inFlight === undefined || inFlight.size === 0) return NONE;
          return inFlightAt(inFlight, name);
        },
        next: (s, key, events) => {
          const r = reconcilesIn(lens.get(s), c.name)?.get(key);
          if (!r || r.step !== name) return undefined;
          return run(s, key, r.locals, name, step, events);
        },
      }),
    );
    return [start, ...later];
  }
}

/** The objects of `kind` among `objects` (a store or a cache), in name order: what a List answers. */
function ofKind(objects: Map<ObjectKey, KubeObject> | undefined, kind: string): KubeObject[] {
  const out: KubeObject[] = [];
  if (objects !== undefined) for (const o of objects.values()) if (o.kind === kind) out.push(o);
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The faults, the lag bound and the garbage collector of `config`, in plain words. */
function environmentAssumptions<S>(config: KubernetesConfig<S>): string[] {
  const f = config.faults ?? {};
  const out: string[] = [];
  if (f.restarts)
    out.push(`Fault: up to ${f.restarts} controller-manager crash and restart (in-memory work lost, cache relisted), at any point.`);
  if (f.cacheLagBound !== undefined)
    out.push(`Caches lag at most ${f.cacheLagBound} watch event${f.cacheLagBound === 1 ? '' : 's'} per object behind the API server.`);
  if (f.coalesce)
    out.push('Fault: an informer may take all pending events of an object at once, its handlers seeing only the first and last versions.');
  if (f.timeTravel)
    out.push(
      'Fault (time travel): a second API server per server serves a watch cache that lags behind storage; a restart may reconnect a controller manager to it, whose cache is then relisted from that older view.',
    );
  if (f.resync)
    out.push('Periodic resync (--sync-period): at any time an informer may hand a cached object to its handlers again, unchanged.');
  if (config.uids)
    out.push('Objects carry UIDs: an object created again under its name has a UID other than any its old incarnation left behind.');
  const collected = collectorsOf(config).map((g) => g.server);
  for (const g of collectorsOf(config)) {
    if ('kinds' in g)
      out.push(
        `The garbage collector on ${g.server} keeps its own graph from its informers (starting empty, as after a kube-controller-manager restart); its absent-owner cache is keyed by ${g.absentOwnerCache === 'uid' ? 'uid (before kubernetes#92743)' : 'uid and namespace (kubernetes#92743, v1.20)'}.`,
      );
  }
  const without = config.servers.filter((server) => !collected.includes(server));
  if (collected.length > 0)
    out.push(`The garbage collector runs on ${collected.join(' and ')} (background deletion of objects whose owners are all gone).`);
  if (without.length > 0) out.push(`No garbage collector runs on ${without.join(' or ')}: ownerReferences there are only data.`);
  return out;
}

/**
 * Whether `cache` has taken in every write in `written` (object key to the resourceVersion the
 * write left): no event of the object at or before that version is still pending for it. An
 * event the cache never gets (a kind it does not hold, an update filtered as invisible) is not
 * pending either. Inference: the real check compares the informer's last synced resourceVersion,
 * global over the kind, with the write's (consistency.go EnsureReady); per object it lets a
 * reconcile start as soon as that object is seen, which allows every behaviour the real one does
 * (but across an object deleted and created again, whose resourceVersions start again at 1 here).
 * (Under a manager `view` that leaves resourceVersion out, it waits for every pending event of the object.)
 */
function caughtUp(world: KubeWorld, cache: string, written: Map<ObjectKey, number> | undefined): boolean {
  if (written === undefined) return true;
  const pending = pendingIn(world, cache);
  if (pending === undefined || pending.size === 0) return true;
  return written.every((rv, key) => {
    const events = pending.get(key);
    return events === undefined || events.every((e) => e.object.resourceVersion > rv);
  });
}

/**
 * A key that waits for its RequeueAfter delay, as the work queue holds it: `~Kind/name` (no
 * Kubernetes kind starts with `~`). Kept in the queue so that the world needs no field of its own.
 */
function waitingKey(key: ObjectKey): string {
  return `~${key}`;
}
function isWaitingKey(k: string): boolean {
  return k.charCodeAt(0) === 126; /* '~' */
}

/** The garbage collectors of `config`: a server's name alone is the one that reads live. */
function collectorsOf<S>(config: KubernetesConfig<S>): readonly ({ readonly server: string } | GraphCollectorConfig)[] {
  return (config.garbageCollector ?? []).map((g) => (typeof g === 'string' ? { server: g } : g));
}

/** `worlds` less repeats (equal worlds, by value). */
function dedupe(worlds: KubeWorld[]): KubeWorld[] {
  return Set(worlds).toArray();
}

/** Every order of `keys` that keeps each key's own occurrences in place relative to each other. */
function interleavings(keys: List<ObjectKey>): List<ObjectKey>[] {
  const counts = new globalThis.Map<ObjectKey, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const out: List<ObjectKey>[] = [];
  const walk = (prefix: List<ObjectKey>) => {
    if (prefix.size === keys.size) {
      out.push(prefix);
      return;
    }
    for (const [k, n] of counts) {
      if (n === 0) continue;
      counts.set(k, n - 1);
      walk(prefix.push(k));
      counts.set(k, n);
    }
  };
  walk(List());
  return out;
}

/** Whether `after` has a key queued that `before` had not (a handler run changes only queues). */
function queuesMore(before: KubeWorld, after: KubeWorld, controllers: readonly { readonly name: string }[]): boolean {
  return controllers.some((c) => {
    const a = queueIn(before, c.name);
    const b = queueIn(after, c.name);
    return a !== b && (a === undefined || b === undefined || !a.equals(b));
  });
}

/** How an API server is named as a participant in traces and diagrams. */
export function serverParticipant(server: string): string {
  return `${server} API server`;
}

export function kubernetes<S>(config: KubernetesConfig<S>): Kubernetes<S> {
  return new Kubernetes(config);
}

/** The API server's rules, checked on the model's own runs (they hold by construction). */
function apiRules<S>(lens: WorldField<S>, servers: readonly string[]): Property<S>[] {
  // (The predicates are made once, and a step that writes to no server returns before any
  // closure is made: these run on every step and every state.)
  // The two step properties ask in turn of the same step whether it wrote to a server: the
  // answer is kept for the second (it took about 2% of bench case 6, asked twice).
  let lastS: S | undefined;
  let lastT: S | undefined;
  let lastSame = false;
  const everyDeleting = (s: S, t: S, ok: (before: KubeObject, after: KubeObject) => boolean) => {
    if (s === lastS && t === lastT && lastSame) return true;
    const ws = lens.get(s);
    const wt = lens.get(t);
    if (s !== lastS || t !== lastT) {
      lastS = s;
      lastT = t;
      lastSame = sameServers(ws, wt, servers);
    }
    // Most steps write to no server (cache catch-ups, reads): the same servers, nothing to check.
    return lastSame || deletingKept(ws, wt, servers, ok);
  };
  // Consecutive states (a state's successors, kept in turn) mostly share their servers' objects:
  // the last verdict per server is kept, by the objects it was given for.
  const checkedObjects: (Map<ObjectKey, KubeObject> | undefined)[] = servers.map(() => undefined);
  const checkedVerdict: boolean[] = servers.map(() => true);
  const keepsDeletionTimestamp = (a: KubeObject, b: KubeObject) => b.deletionTimestamp === a.deletionTimestamp;
  // (The garbage collector's own finalizers are the exception: a DELETE with a propagation policy
  // may add one to an object already being deleted, apiServer.ts del.)
  const addsNoFinalizer = (a: KubeObject, b: KubeObject) =>
    b.finalizers.every((f) => a.finalizers.includes(f) || f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
  const keptWithFinalizers = (o: KubeObject) => !isDeleting(o) || !o.finalizers.isEmpty();
  return [
    actionProperty<S>(
      'DeletionIsFinal',
      'Once an object has a deletionTimestamp, it keeps that same deletionTimestamp until it is gone.',
      (s, t) => everyDeleting(s, t, keepsDeletionTimestamp),
    ),
    actionProperty<S>(
      'NoNewFinalizersWhileDeleting',
      "No finalizer is ever added to an object that is being deleted, but the garbage collector's (orphan, foregroundDeletion), which a DELETE with a propagation policy may add.",
      (s, t) => everyDeleting(s, t, addsNoFinalizer),
    ),
    invariant<S>(
      'NoDeletingObjectWithoutFinalizers',
      'An object that is being deleted and has no finalizers left is gone from storage, never kept.',
      (s) => {
        const world = lens.get(s);
        for (let i = 0; i < servers.length; i++) {
          const objects = serverIn(world, servers[i])?.objects;
          if (objects === undefined) continue;
          if (objects !== checkedObjects[i]) {
            checkedObjects[i] = objects;
            checkedVerdict[i] = objects.every(keptWithFinalizers);
          }
          if (!checkedVerdict[i]) return false;
        }
        return true;
      },
    ),
  ];
}

/** Whether every object being deleted in `before`'s servers is, in `after`'s, gone or as `ok` requires. */
function deletingKept(
  before: KubeWorld,
  after: KubeWorld,
  servers: readonly string[],
  ok: (before: KubeObject, after: KubeObject) => boolean,
): boolean {
  return servers.every((name) => {
    const was = serverIn(before, name)?.objects;
    const now = serverIn(after, name)?.objects;
    if (!was || !now || was === now) return true;
    return was.every((o, key) => {
      if (!isDeleting(o)) return true;
      const n = now.get(key);
      return n === undefined || ok(o, n);
    });
  });
}

/**
 * An object's history as the API server would have stored it: resourceVersion 1, 2, ... and
 * generation 1 at creation, bumped by each version that changes the spec or marks the object
 * for deletion (the rules of apiServer.ts). A condition cannot have observed a generation the
 * object has not reached.
 */
function numbered(history: readonly KubeObject[], uids: boolean): KubeObject[] {
  const out: KubeObject[] = [];
  for (const [i, v] of history.entries()) {
    const prev = out[i - 1];
    const bumped = prev !== undefined && (!v.spec.equals(prev.spec) || (isDeleting(v) && !isDeleting(prev)));
    const generation = prev === undefined ? 1 : prev.generation + (bumped ? 1 : 0);
    for (const [type, c] of v.conditions) {
      if (c.observedGeneration > generation) {
        throw new Error(
          `${keyOf(v)}, version ${i + 1} of its history: condition ${type} has observedGeneration ${c.observedGeneration}, but the object is at generation ${generation}`,
        );
      }
    }
    // One incarnation: the first UID (identities.ts), unless the history names its own.
    const uid = uids && v.uid === '' ? `${keyOf(v)}#1` : v.uid;
    out.push(v.merge({ resourceVersion: i + 1, generation, uid }));
  }
  return out;
}
