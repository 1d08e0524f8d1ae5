// How a model writes a controller: its watches (which events enqueue which keys) and its
// Reconcile as a sequence of steps. Each step is atomic and makes at most one API request;
// local decisions on the copies a reconcile holds belong to the step before the next request,
// since nothing else can change a local copy. Reads go through the controller manager's cache,
// writes straight to its API server, as with controller-runtime's default client.
import type { Map } from 'immutable';
import type { ApiResponse, ApiResult, ApiServer, KindRules, MergePatch, Preconditions, WatchEventType } from './apiServer.ts';
import type { Identities } from './identities.ts';
import * as api from './apiServer.ts';
import { keyOf, type KubeObject, type ObjectKey } from './object.ts';
import type { StepEvent } from '../engine/model.ts';
import type { LocalValue } from './world.ts';

/**
 * What a request made through an environment may ask of it besides the store: names and UIDs
 * fresh in the state it is made in (identities.ts), and each kind's rules.
 */
export interface ServerContext {
  fresh(): Identities;
  rules(kind: string): KindRules;
}

/** A watch event as a handler's predicate sees it. */
export interface HandlerEvent {
  readonly type: WatchEventType;
  /** The cache's copy before the event (absent for ADDED). */
  readonly old?: KubeObject;
  /** The object the event carries (for DELETED: its last state). */
  readonly object: KubeObject;
  /**
   * A periodic resync (client-go's Sync delta): an update from the cache's copy to itself, with
   * the same resourceVersion. Every real write has a new one, so only a resync sets this.
   */
  readonly resync?: boolean;
}

/**
 * Cluster API's predicates.ResourceIsChanged and the like: drop an update whose resourceVersion
 * did not change, which only a resync sends. Use it (or test `resync`) where the real watch has it.
 */
export const resourceIsChanged = (e: HandlerEvent): boolean => e.resync !== true;

/**
 * A watch: its predicate and map, and a controller's eventFilter, must be functions of their
 * arguments alone, as every model function must. The library relies on it: a cache catch-up met
 * again on the same values is applied from a memo, not run again (catchUps.ts).
 */
export interface WatchConfig {
  readonly kind: string;
  /** Whether the event is handled at all; all pass by default. */
  readonly predicate?: (e: HandlerEvent) => boolean;
  /** The keys the event enqueues, read with the manager's cache; the object's own key by default. */
  readonly map?: (obj: KubeObject, cache: Map<ObjectKey, KubeObject>) => Iterable<ObjectKey>;
}

/** A controller manager: one process with one cache, shared by its controllers. */
export interface ManagerConfig {
  readonly name: string;
  readonly server: string;
  /** The kinds its cache holds. */
  readonly kinds: readonly string[];
  /**
   * What this manager's code reads of an object; its cache keeps only that. Caches that
   * differ only in fields nobody reads are then one state, and an update that changes nothing
   * the cache keeps and that no handler's predicate lets through is not delivered at all (a
   * step that would change nothing anyone sees). Leaving out a field that a reconcile, a
   * predicate or a map function reads is a modeling error. Default: the whole object.
   */
  readonly view?: (obj: KubeObject) => KubeObject;
  /**
   * The model itself reads this cache (in a property, say) though no controller of the manager
   * does. Without it, a manager that runs no controller is a wiring error: nothing would read
   * its cache, which usually means a controller's `manager` is misspelt.
   */
  readonly readByModel?: boolean;
}

/** What a step decides after its request. */
export type StepOutcome =
  | { readonly kind: 'goto'; readonly step: string; readonly locals: Readonly<globalThis.Record<string, LocalValue>> }
  | { readonly kind: 'done' }
  | { readonly kind: 'requeue' }
  /** Reconcile returned Result{RequeueAfter}: no error; the key comes back later (`after` says when, in words, for traces). */
  | { readonly kind: 'requeueAfter'; readonly after: string };

export type Step<S> = (r: StepContext<S>) => StepOutcome;

export interface ControllerConfig<S> {
  readonly name: string;
  readonly manager: string;
  /** Watches, the For() kind first; WithEventFilter applies `eventFilter` to all of them. */
  readonly watches: readonly WatchConfig[];
  readonly eventFilter?: (e: HandlerEvent) => boolean;
  /** The first step, taken when a worker takes a key off the queue. */
  readonly reconcile: Step<S>;
  /** The later steps, by name; the action for step `x` is named `<controller>.<x>`. */
  readonly steps: Readonly<globalThis.Record<string, Step<S>>>;
  /** Per step (`reconcile` included): where it comes from in the real code. */
  readonly docs?: Readonly<globalThis.Record<string, string>>;
  /**
   * Stale-controller mitigation (KEP-5647; Cluster API's util/controller consistency store,
   * v1.14): after each successful write a reconcile makes, the next reconcile of the same key
   * waits until the manager's cache has taken in that write (the object at the resourceVersion
   * the write left, or later). In memory only: a restart forgets it. Every write of the reconcile
   * is recorded, where the real code records those it defers on (Cluster API: its creates,
   * updates and deletes of MachineSets).
   */
  readonly waitForOwnWrites?: boolean;
}

/** The context a step runs in; it threads the state through the step's one request. */
export class StepContext<S> {
  private requestCount = 0;

  constructor(
    /** The model state, updated by the step's request and effects. */
    public state: S,
    readonly controller: string,
    readonly key: ObjectKey,
    private readonly locals: Map<string, LocalValue>,
    private readonly io: {
      readonly cached: (s: S, key: ObjectKey) => KubeObject | undefined;
      readonly list: (s: S, kind: string) => readonly KubeObject[];
      readonly get: (s: S, key: ObjectKey, events?: StepEvent[]) => ApiResponse;
      readonly request: (
        s: S,
        call: (server: ApiServer, context: ServerContext) => ApiResult,
        events?: StepEvent[],
      ) => { state: S; response: ApiResponse };
    },
    /** Where the step tells what it did, while a trace is rebuilt; absent during the search. */
    private readonly events?: StepEvent[],
  ) {}

  /** A local variable of this reconcile, e.g. the copy it read from the cache. */
  local<T>(name: string): T {
    if (!this.locals.has(name)) throw new Error(`reconcile of ${this.key} by ${this.controller} has no local ${name}`);
    return this.locals.get(name) as T;
  }

  /** client.Get through the manager's cache: the object as that cache last saw it. */
  cached(key: ObjectKey): KubeObject | undefined {
    return this.io.cached(this.state, key);
  }

  /** client.List through the manager's cache: every cached object of `kind`, in key order. */
  list(kind: string): readonly KubeObject[] {
    return this.io.list(this.state, kind);
  }

  /**
   * A live GET from the API server, not the cache (the manager's APIReader, or a client built
   * without the cache): the object as stored now, or 404. It is this step's one request.
   */
  get(key: ObjectKey): ApiResponse {
    this.countRequest(`GET ${key}`);
    return this.io.get(this.state, key, this.events);
  }

  /**
   * client.Create: 201, or 409 if the name is taken. An object with a generateName and no name
   * gets one from the server: the answer's object has it.
   */
  create(obj: KubeObject): ApiResponse {
    return this.send(`CREATE ${keyOf(obj)}`, (s, c) => api.create(s, obj, { fresh: c.fresh(), validate: c.rules(obj.kind).validate }));
  }

  /** client.Update: a PUT of the copy, 409 unless its resourceVersion (and uid, where it has one) is the stored one. */
  update(obj: KubeObject): ApiResponse {
    return this.send(`PUT ${keyOf(obj)}`, (s, c) => api.update(s, obj, c.rules(obj.kind)));
  }

  /**
   * client.Patch with a JSON merge patch: without a resourceVersion (client.MergeFrom) it applies
   * to whatever is stored; with `{ resourceVersion }`, the version of the copy the patch was made
   * from (client.MergeFromWithOptimisticLock), it gets 409 Conflict unless that is still stored.
   */
  mergePatch(key: ObjectKey, patch: MergePatch, options: { readonly resourceVersion?: number } = {}): ApiResponse {
    return this.send(`PATCH ${key}`, (s, c) =>
      api.mergePatch(s, key, patch, options.resourceVersion, c.rules(key.slice(0, key.indexOf('/')))),
    );
  }

  /**
   * client.Delete: marks the object if it has finalizers, removes it if not. With
   * `client.Preconditions{UID, ResourceVersion}`, an object whose uid or resourceVersion differs
   * gets 409 Conflict instead.
   */
  delete(key: ObjectKey, preconditions?: Preconditions): ApiResponse {
    return this.send(`DELETE ${key}`, (s) => api.del(s, key, preconditions));
  }

  /**
   * Any other request to the manager's API server, as a function of the stored objects and the
   * environment's context (fresh names and UIDs, each kind's rules): see apiServer.ts for the
   * shape, e.g. `(srv) => k8s.jsonPatchAddAnnotations(srv, key, a)`. Traced like the others, and
   * this step's one request.
   */
  request(call: (server: ApiServer, context: ServerContext) => ApiResult): ApiResponse {
    return this.send('a request', call);
  }

  private send(what: string, call: (server: ApiServer, context: ServerContext) => ApiResult): ApiResponse {
    this.countRequest(what);
    const { state, response } = this.io.request(this.state, call, this.events);
    this.state = state;
    return response;
  }

  /** A change to the world outside Kubernetes, e.g. deleting a load balancer. */
  effect(change: (s: S) => S): void {
    this.state = change(this.state);
  }

  /** Continue with `step`, keeping only `locals` (what that step and later ones read). */
  goto(step: string, locals: Readonly<globalThis.Record<string, LocalValue>> = {}): StepOutcome {
    return { kind: 'goto', step, locals };
  }

  /** Reconcile returned without error: the key leaves the worker. */
  done(): StepOutcome {
    return { kind: 'done' };
  }

  /** Reconcile returned an error: the key goes back on the queue (with backoff, in real time). */
  requeue(): StepOutcome {
    return { kind: 'requeue' };
  }

  /**
   * Reconcile returned `ctrl.Result{RequeueAfter: d}` and no error (`after`: d in words, `'5s'`):
   * controller-runtime Forgets the key's backoff and adds it again after d (reconcileHandler,
   * AddAfter). Without time, the key goes back on the queue at once, as after an error; the trace
   * says which it was, so that a lasso through a periodic requeue reads as one, not as an error.
   */
  requeueAfter(after: string): StepOutcome {
    return { kind: 'requeueAfter', after };
  }

  private countRequest(what: string): void {
    if (++this.requestCount > 1) {
      throw new Error(
        `a step of ${this.controller} on ${this.key} made a second API request (${what}); each request is a step of its own: end this step with r.goto('<next step>', locals) and make the request there`,
      );
    }
  }
}
