// An audit log replayed through the library's API server (issue 48, part 2): each recorded
// request the library can make is made, in the log's order, on the objects as the log shows
// them, and the library's answer compared with the recorded one. What is compared: the status
// code; for a success with the object in the answer, its finalizers, whether it is being deleted,
// whether it was removed, its generation (where the recorded object has one: built-in kinds
// without it keep none), and whether the request wrote (a new resourceVersion: compared as an
// order, since the real ones are etcd revisions and the library's per-object counters).
//
// The objects: one the log first touches with a create did not exist before the log began;
// one it first touches otherwise did, and its state is whatever the log shows first (a GET's
// answer, a list's item, a write's answer), the requests before that skipped as "not known".
// After every request the object is taken as the recorded answer shows it (when it does), so a
// field the library does not compare (the real server's defaulting, say) never carries one
// disagreement into the next request.
import { List } from 'immutable';
import {
  type ApiResult,
  type MergePatch,
  type Preconditions,
  create,
  del,
  emptyServer,
  get,
  mergePatch,
  update,
  type ApiServer,
} from '../apiServer.ts';
import type { KubeObject, ObjectKey } from '../object.ts';
import { type AuditEvent, type AuditLog, type ObjectReference, type Place, Tallies } from './auditLog.ts';
import {
  applyMergePatch,
  canonical,
  hasDirective,
  isKindObject,
  isObject,
  kindsNamedIn,
  type Json,
  type JsonObject,
  libraryName,
  metadataOf,
  resourceOf,
  toKubeObject,
} from './auditObjects.ts';
import { applyJsonPatch, JsonPatchError } from './jsonPatch.ts';

export interface ReplayOptions {
  /**
   * Only requests for objects of these kinds (a model's servers' kinds); undefined: every kind,
   * under the library's generic rules (a custom resource's).
   */
  readonly kinds?: ReadonlySet<string>;
}

/** What one side answered, as far as it is compared. */
export interface Answer {
  readonly code: number;
  readonly reason?: string;
  /** The object after a success, where the answer shows it. */
  readonly object?: {
    readonly finalizers: readonly string[];
    readonly deleting: boolean;
    readonly removed: boolean;
    /** Undefined where the recorded object has none (not compared). */
    readonly generation?: number;
    /** The request wrote the object (a new resourceVersion); undefined where the log cannot tell. */
    readonly wrote?: boolean;
    /** metadata.labels and annotations as canonical JSON, and the ownerReferences' `Kind/name`s; undefined for a removal. */
    readonly labels?: string;
    readonly annotations?: string;
    readonly owners?: readonly string[];
  };
}

export interface Divergence {
  /** Where the event was, and its number among the events. */
  readonly at: Place;
  readonly event: number;
  readonly auditID?: string;
  /** `PATCH /apis/...` as the log has it, and who sent it. */
  readonly request: string;
  readonly user?: string;
  readonly body?: Json;
  readonly recorded: Answer;
  readonly library: Answer;
  /** Each field that differs: `code: 409 (recorded) vs 200 (library)`. */
  readonly diff: readonly string[];
  /** What the library does not model that may explain it, where one is known. */
  readonly note?: string;
}

/** How many entries were left out for one reason, and where the first was. */
export interface Tally {
  readonly why: string;
  readonly count: number;
  readonly first: Place;
}

export interface ReplayReport {
  readonly events: number;
  /** Entries that were not audit Events, by why. */
  readonly notEvents: readonly Tally[];
  readonly replayed: number;
  readonly agreed: number;
  /** Objects whose state was taken from the log (a read's answer or a write's) before the library acted on them. */
  readonly rebuilt: number;
  readonly divergences: readonly Divergence[];
  /** Events not replayed, by why, in order of first appearance. */
  readonly skipped: readonly Tally[];
  /** The kinds whose requests were replayed, with how many each. */
  readonly kinds: readonly { readonly kind: string; readonly replayed: number }[];
}

/** A request the library made: its answer and the server after it. */
type Made = Pick<ApiResult, 'server' | 'response'>;

/**
 * The answers of the registry, the library's part: success, NotFound, Conflict, Invalid. Others
 * come from elsewhere in the server (401, 403, 400, 429, timeouts) and are not replayed.
 */
const REGISTRY_CODES = new Set([200, 201, 202, 404, 409, 422]);

const WRITES = new Set(['create', 'update', 'patch', 'delete']);

/** Replays `log` (see the top of this file). */
export function replayAudit(log: AuditLog, options: ReplayOptions = {}): ReplayReport {
  return new Replay(log, options).run();
}

/** What the replay knows of one object. */
type Knowledge = 'known' | 'absent' | 'unknown';

class Replay {
  private server: ApiServer = emptyServer();
  /** Per object key: what is known of it (no entry: never touched yet). */
  private readonly knowledge = new Map<ObjectKey, Knowledge>();
  /** Per object key: its last recorded image (the full JSON), for JSON patches and merge patches' nested fields. */
  private readonly images = new Map<ObjectKey, JsonObject>();
  /** Per object key: real resourceVersion -> the library's, and the last library number given. */
  private readonly rvs = new Map<ObjectKey, Map<string, number>>();
  private readonly lastRv = new Map<ObjectKey, number>();
  /** The real resourceVersion of each known object as last recorded. */
  private readonly realRv = new Map<ObjectKey, string>();
  /** Resource (`configmaps`, `clusters.cluster.x-k8s.io`) -> Kind, from every body in the log. */
  private readonly kindOf: Map<string, string>;
  /** The kinds some body names (a resource no body names is its own kind, and takes any object). */
  private readonly namedKinds = new Set<string>();
  private readonly skipped = new Tallies();
  private readonly perKind = new Map<string, number>();
  private readonly divergences: Divergence[] = [];
  private replayed = 0;
  private agreed = 0;
  private rebuilt = 0;

  constructor(
    private readonly log: AuditLog,
    private readonly options: ReplayOptions,
  ) {
    this.kindOf = kindsNamedIn(log.events, new Map());
    for (const k of this.kindOf.values()) this.namedKinds.add(k);
  }

  run(): ReplayReport {
    for (const [n, { event, at }] of this.log.events.entries()) this.take(event, at, n + 1);
    const notEvents = new Tallies();
    for (const n of this.log.notEvents) notEvents.add(n.why, n.at);
    return {
      events: this.log.events.length,
      notEvents: notEvents.list(),
      replayed: this.replayed,
      agreed: this.agreed,
      rebuilt: this.rebuilt,
      divergences: this.divergences,
      skipped: this.skipped.list(),
      kinds: [...this.perKind].map(([kind, replayed]) => ({ kind, replayed })).sort((a, b) => a.kind.localeCompare(b.kind)),
    };
  }

  private skip(why: string, at: Place): void {
    this.skipped.add(why, at);
  }

  private take(e: AuditEvent, at: Place, n: number): void {
    if (e.stage !== 'ResponseComplete') {
      this.skip(`stage ${e.stage}: only a request's ResponseComplete entry is replayed`, at);
      return;
    }
    const ref = e.objectRef;
    if (ref?.resource === undefined) {
      this.skip('not a resource request (a non-resource URL such as /healthz or /version)', at);
      return;
    }
    const resource = resourceOf(ref);
    const kind = this.kindOf.get(resource);
    if (this.options.kinds !== undefined && (kind === undefined || !this.options.kinds.has(kind))) {
      this.skip(kind === undefined ? `${resource}: no body in the log names its kind` : `kind ${kind}: not among the kinds asked for`, at);
      return;
    }
    const libKind = kind ?? resource;
    if (e.requestURI !== undefined && /[?&]dryRun=/.test(e.requestURI)) {
      this.skip('a dry run: it changes nothing', at);
      return;
    }
    if (e.verb === 'list' || e.verb === 'watch' || e.verb === 'deletecollection') {
      this.collection(e, ref, libKind, at);
      return;
    }
    const name = ref.name ?? (e.verb === 'create' ? nameIn(e.responseObject) : undefined);
    if (name === undefined) {
      this.skip(`${e.verb} with no object name in the log`, at);
      return;
    }
    const key = `${libKind}/${libraryName(ref.namespace, name)}`;
    const code = e.responseStatus?.code ?? 0;
    if (!REGISTRY_CODES.has(code)) {
      this.skip(
        `answered ${code} before or beside the registry (authentication, authorization, admission, rate limits, timeouts): not the library's`,
        at,
      );
      // A timeout may have written; the other answers changed nothing.
      if (code >= 500 && e.verb !== 'get' && this.knowledge.has(key)) this.knowledge.set(key, 'unknown');
      return;
    }
    if (e.verb === 'get' && /[?&]resourceVersion=[^&]/.test(e.requestURI ?? '')) {
      this.skip('a read with a resourceVersion: it may be served from the watch cache, older than the last write', at);
      return;
    }
    if (ref.subresource) {
      this.skip(
        `subresource ${ref.subresource}: its rules are not the library's; its answer, where the log has it, is the object's state after it`,
        at,
      );
      this.afterUnreplayed(e, key, libKind);
      return;
    }
    const first = !this.knowledge.has(key);
    if (first) this.knowledge.set(key, e.verb === 'create' && code !== 409 ? 'absent' : 'unknown');
    const existed = first && e.verb === 'create';
    if (this.knowledge.get(key) === 'unknown') {
      if (e.verb === 'get' && (code === 404 || this.objectIn(e.responseObject, libKind) !== undefined)) {
        this.learn(key, libKind, code === 404 ? undefined : this.objectIn(e.responseObject, libKind));
        this.rebuilt++;
        this.skip('a read of an object the log had not shown yet: its answer is the object as it was (rebuilt, not replayed)', at);
        return;
      }
      this.skip(
        existed
          ? "an object's first request in the log is a create answered 409: it existed before the log began, and the log has not shown it yet"
          : first
            ? `an object's first request in the log is ${article(e.verb)}, not a create: it existed before the log began, and the log has not shown it yet`
            : `${article(e.verb)} of an object whose state the log does not show since an earlier request that was not replayed`,
        at,
      );
      this.afterUnreplayed(e, key, libKind);
      return;
    }
    if (e.verb !== 'get' && !WRITES.has(e.verb)) {
      this.skip(`verb ${e.verb}: not replayed`, at);
      return;
    }
    const level = e.level;
    const hasBody = level === 'Request' || level === 'RequestResponse';
    if (e.verb !== 'get' && !hasBody) {
      this.skip(`${level} level: the log holds no request body to replay`, at);
      this.afterUnreplayed(e, key, libKind);
      return;
    }
    const outcome = this.request(e, key, libKind);
    if (typeof outcome === 'string') {
      this.skip(outcome, at);
      this.afterUnreplayed(e, key, libKind);
      return;
    }
    this.replayed++;
    this.perKind.set(libKind, (this.perKind.get(libKind) ?? 0) + 1);
    const before = this.server.objects.get(key);
    const recorded = this.recordedAnswer(e, key, libKind);
    const library = libraryAnswer(outcome, before);
    const diff = compare(recorded, library, isObject(e.requestObject) && e.requestObject.orphanDependents === false);
    if (diff.length === 0) this.agreed++;
    else {
      this.divergences.push({
        at,
        event: n,
        ...(e.auditID !== undefined ? { auditID: e.auditID } : {}),
        request: `${e.verb.toUpperCase()} ${e.requestURI ?? resource}`,
        ...(e.user?.username !== undefined ? { user: e.user.username } : {}),
        ...(e.requestObject !== undefined ? { body: e.requestObject as Json } : {}),
        recorded,
        library,
        diff,
        ...(noteFor(e, ref) !== undefined ? { note: noteFor(e, ref) } : {}),
      });
    }
    // The object as the log shows it after the request; where the log does not show it, as the
    // library left it when both succeeded (the codes agree) or failed alike.
    const shown = this.objectIn(e.responseObject, libKind);
    if (code >= 200 && code < 300 && removedIn(e)) this.learn(key, libKind, undefined);
    else if (code >= 200 && code < 300 && shown !== undefined) this.learn(key, libKind, shown, outcome);
    else if (code === 404) this.learn(key, libKind, undefined);
    else if (code >= 300 && library.code === code) this.server = outcome.server;
    else if (code >= 200 && code < 300 && e.verb === 'get') return;
    // A write that succeeded with no answer in the log (Request level): its new resourceVersion
    // is not in the log, so the next request that names one cannot be judged.
    else this.knowledge.set(key, 'unknown');
  }

  /** The library's request for `e`, or why it cannot make it. */
  private request(e: AuditEvent, key: ObjectKey, kind: string): Made | string {
    const ref = e.objectRef!;
    switch (e.verb) {
      case 'get':
        return { server: this.server, response: get(this.server, key) };
      case 'create': {
        const body = e.requestObject;
        if (!isKindObject(body)) return 'a create whose request body is not an object';
        const obj = toKubeObject(withNamespace(body, ref.namespace), kind, 0);
        const made = metadataOf(e.responseObject);
        return create(this.server, obj, {
          fresh: {
            name: (_kind, prefix) => libraryName(ref.namespace, typeof made.name === 'string' ? made.name : `${prefix}xxxxx`),
            uid: () => (typeof made.uid === 'string' ? made.uid : ''),
          },
        });
      }
      case 'update': {
        const body = e.requestObject;
        if (!isKindObject(body)) return 'an update whose request body is not an object';
        const rv = metadataOf(body).resourceVersion;
        if (typeof rv !== 'string' || rv === '') {
          if (e.responseStatus?.code !== 422)
            return "an update without a resourceVersion: allowed or not by the kind's strategy (built-in kinds mostly allow it, custom resources do not); not judged";
        }
        if (e.responseStatus?.code === 201)
          return "an update that created the object (the kind's strategy allows create on update; custom resources do not)";
        return update(
          this.server,
          toKubeObject(withNamespace(body, ref.namespace), kind, typeof rv === 'string' && rv !== '' ? this.libRv(key, rv) : 0),
        );
      }
      case 'patch':
        return this.patch(e, key, kind);
      case 'delete': {
        const options = isObject(e.requestObject) ? e.requestObject : {};
        const pre = isObject(options.preconditions) ? options.preconditions : {};
        // (orphanDependents, deprecated: true is Orphan, false Background: store.go shouldOrphanDependents.)
        const policy =
          options.propagationPolicy ??
          (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
        const graceful = metadataOf(e.responseObject).deletionGracePeriodSeconds;
        if (typeof graceful === 'number' && graceful > 0)
          return "a graceful deletion (a Pod's grace period, ended by the kubelet): not the library's";
        const preconditions: Preconditions = {
          ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
          ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: this.libRv(key, pre.resourceVersion) } : {}),
          ...(policy === 'Orphan' || policy === 'Foreground' || policy === 'Background' ? { propagationPolicy: policy } : {}),
        };
        return del(this.server, key, Object.keys(preconditions).length > 0 ? preconditions : undefined);
      }
    }
    return `verb ${e.verb}: not replayed`;
  }

  /**
   * A PATCH. The audit Event does not record the patch's content type: an array is a JSON patch
   * (applied to the stored object, then written as an update, as the API server's patcher does);
   * an object with `$` directives is a strategic merge patch (not replayed); server-side apply
   * (an object with apiVersion and kind sent with a fieldManager) is not replayed; any other
   * object is replayed as a JSON merge patch, through the library's mergePatch where it can say
   * the patch (labels, annotations, finalizers, top-level fields, resourceVersion), else as an
   * update of the merged object.
   */
  private patch(e: AuditEvent, key: ObjectKey, kind: string): Made | string {
    const body = e.requestObject;
    const stored = this.server.objects.get(key);
    const image = this.images.get(key);
    if (Array.isArray(body)) {
      if (stored === undefined) return update(this.server, emptyObject(key, kind));
      if (image === undefined) return 'a JSON patch of an object the log has not shown whole';
      let patched: Json;
      try {
        patched = applyJsonPatch(image, body as Json[]);
      } catch (err) {
        // The API server's patcher answers 422 (handlers/patch.go applyJSPatch).
        if (err instanceof JsonPatchError)
          return { server: this.server, response: { code: 422, reason: `the JSON patch does not apply: ${err.message}` } };
        throw err;
      }
      if (!isObject(patched)) return 'a JSON patch that leaves no object';
      const rv = metadataOf(patched).resourceVersion;
      const libRv = typeof rv === 'string' && rv !== this.realRv.get(key) ? this.libRv(key, rv) : stored.resourceVersion;
      return update(this.server, toKubeObject(patched, kind, libRv).set('uid', stored.uid));
    }
    if (!isObject(body)) return 'a patch whose body is neither an object nor an array';
    if (hasDirective(body)) return 'a strategic merge patch (its $ directives): not the library’s';
    if (typeof body.apiVersion === 'string' && typeof body.kind === 'string' && /[?&]fieldManager=/.test(e.requestURI ?? '')) {
      return 'server-side apply: managed fields are not the library’s';
    }
    const meta = isObject(body.metadata) ? body.metadata : {};
    if ('resourceVersion' in meta && (typeof meta.resourceVersion !== 'string' || meta.resourceVersion === '')) {
      return "a patch that clears resourceVersion (an unconditional update: the kind's strategy's)";
    }
    const rv = typeof meta.resourceVersion === 'string' ? this.libRv(key, meta.resourceVersion) : undefined;
    const sayable = Object.keys(meta).every((k) => ['labels', 'annotations', 'finalizers', 'resourceVersion'].includes(k));
    if (sayable && stored !== undefined) {
      const patch: { -readonly [K in keyof MergePatch]: MergePatch[K] } = {};
      // (null removes the whole map: each entry, then.)
      const all = (keys: Iterable<string>) => Object.fromEntries([...keys].map((k) => [k, null]));
      if (isObject(meta.labels)) patch.labels = meta.labels as Record<string, string | null>;
      else if (meta.labels === null) patch.labels = all(stored.labels.keys());
      if (isObject(meta.annotations)) patch.annotations = meta.annotations as Record<string, string | null>;
      else if (meta.annotations === null) patch.annotations = all(stored.annotations.keys());
      if (meta.finalizers !== undefined) patch.finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as string[]) : [];
      const spec: Record<string, string | null> = {};
      for (const [field, value] of Object.entries(body)) {
        if (field === 'metadata' || field === 'status' || field === 'apiVersion' || field === 'kind') continue;
        spec[field] = value === null ? null : canonical(applyMergePatch(image?.[field], value));
      }
      if (Object.keys(spec).length > 0) patch.spec = spec;
      return mergePatch(this.server, key, patch, rv);
    }
    if (stored === undefined || image === undefined) return update(this.server, emptyObject(key, kind));
    const merged = applyMergePatch(image, { ...body, status: null });
    return update(this.server, toKubeObject(merged as JsonObject, kind, rv ?? stored.resourceVersion).set('uid', stored.uid));
  }

  /** The recorded answer, in the terms compared. */
  private recordedAnswer(e: AuditEvent, key: ObjectKey, kind: string): Answer {
    const code = e.responseStatus?.code ?? 0;
    const reason = e.responseStatus?.message ?? e.responseStatus?.reason;
    const base = { code, ...(reason ? { reason } : {}) };
    if (code < 200 || code >= 300) return base;
    if (removedIn(e)) return { ...base, object: { finalizers: [], deleting: true, removed: true } };
    const shown = this.objectIn(e.responseObject, kind);
    if (shown === undefined) return base;
    const m = metadataOf(shown);
    const before = this.realRv.get(key);
    const rv = typeof m.resourceVersion === 'string' ? m.resourceVersion : undefined;
    return {
      ...base,
      object: {
        finalizers: Array.isArray(m.finalizers) ? m.finalizers.map(String) : [],
        deleting: typeof m.deletionTimestamp === 'string',
        removed: false,
        labels: canonical(m.labels ?? {}),
        annotations: canonical(m.annotations ?? {}),
        owners: ownerKeys(m.ownerReferences),
        ...(typeof m.generation === 'number' ? { generation: m.generation } : {}),
        ...(e.verb === 'get'
          ? { wrote: false }
          : e.verb === 'create'
            ? { wrote: true }
            : before !== undefined && rv !== undefined
              ? { wrote: rv !== before }
              : {}),
      },
    };
  }

  /** After a request not replayed: the object as its answer shows it, or not known. */
  private afterUnreplayed(e: AuditEvent, key: ObjectKey, kind: string): void {
    const code = e.responseStatus?.code ?? 0;
    if (code >= 400 && code !== 404) return; // refused: nothing changed
    const shown = this.objectIn(e.responseObject, kind);
    if (e.verb === 'get' && code === 200 && shown !== undefined) this.learn(key, kind, shown);
    else if (code === 404 && !e.objectRef?.subresource) this.learn(key, kind, undefined);
    else if (e.verb === 'get') return;
    else if (code >= 200 && code < 300 && removedIn(e)) this.learn(key, kind, undefined);
    else if (code >= 200 && code < 300 && shown !== undefined) this.learn(key, kind, shown);
    else this.knowledge.set(key, 'unknown');
  }

  /** Lists rebuild objects the log has not shown; a deletecollection makes its objects unknown. */
  private collection(e: AuditEvent, ref: ObjectReference, kind: string, at: Place): void {
    if (e.verb === 'watch') {
      this.skip('watch: the audit log holds none of its events', at);
      return;
    }
    if (e.verb === 'deletecollection') {
      this.skip('deletecollection: not replayed; the objects it may have deleted are no longer known', at);
      const prefix = `${kind}/${ref.namespace ? `${ref.namespace}/` : ''}`;
      for (const key of this.knowledge.keys()) if (key.startsWith(prefix)) this.knowledge.set(key, 'unknown');
      return;
    }
    this.skip('list: its items rebuild objects the log has not shown yet; not replayed', at);
    const items = isObject(e.responseObject) && Array.isArray(e.responseObject.items) ? e.responseObject.items : [];
    for (const item of items) {
      const m = metadataOf(item);
      if (typeof m.name !== 'string' || !isObject(item)) continue;
      const key = `${kind}/${libraryName(typeof m.namespace === 'string' ? m.namespace : ref.namespace, m.name)}`;
      if (this.knowledge.get(key) === 'known' || this.knowledge.get(key) === 'absent') continue;
      this.learn(key, kind, { kind: this.kindOf.get(resourceOf(ref)) ?? kind, ...item });
      this.rebuilt++;
    }
  }

  /**
   * The object under `key` as the log shows it (undefined: absent). `after`: the library's
   * result for the request that led to it, whose resourceVersion the recorded one now stands for.
   */
  private learn(key: ObjectKey, kind: string, o: JsonObject | undefined, after?: Made): void {
    if (o === undefined) {
      this.server = this.server.set('objects', this.server.objects.delete(key));
      this.knowledge.set(key, 'absent');
      this.images.delete(key);
      this.realRv.delete(key);
      return;
    }
    const real = metadataOf(o).resourceVersion;
    const libAfter = after?.response.code !== undefined && 'object' in after.response ? after.response.object.resourceVersion : undefined;
    let rv: number;
    if (typeof real === 'string' && this.rvs.get(key)?.has(real)) rv = this.rvs.get(key)!.get(real)!;
    else {
      // A number the object never had (a re-created object starts the library's count again).
      const last = this.lastRv.get(key) ?? 0;
      rv = libAfter !== undefined && libAfter > last ? libAfter : last + 1;
      if (typeof real === 'string') this.rvOf(key).set(real, rv);
    }
    this.lastRv.set(key, Math.max(rv, this.lastRv.get(key) ?? 0));
    const namespace = key.split('/').length > 2 ? key.split('/')[1] : undefined;
    this.server = this.server.set('objects', this.server.objects.set(key, toKubeObject(withNamespace(o, namespace), kind, rv)));
    this.knowledge.set(key, 'known');
    this.images.set(key, o);
    if (typeof real === 'string') this.realRv.set(key, real);
  }

  /** `o` if it is the object itself, of `kind` (not a Status, a Table, a Scale...), else undefined. */
  private objectIn(o: unknown, kind: string): JsonObject | undefined {
    return isKindObject(o) && (o.kind === undefined || o.kind === kind || !this.namedKinds.has(kind)) ? o : undefined;
  }

  private rvOf(key: ObjectKey): Map<string, number> {
    const m = this.rvs.get(key) ?? new Map<string, number>();
    this.rvs.set(key, m);
    return m;
  }

  /** The library's resourceVersion for the real `rv` of `key`: one the object had, or one it never had. */
  private libRv(key: ObjectKey, rv: string): number {
    const known = this.rvs.get(key)?.get(rv);
    if (known !== undefined) return known;
    // A version the log never showed: older than any it did (a client's copy from before the
    // log) or made by a request not replayed; either way not the stored one.
    const fresh = -(this.rvOf(key).size + 1);
    this.rvOf(key).set(rv, fresh);
    return fresh;
  }
}

/** The `Kind/name` of each ownerReference. */
function ownerKeys(refs: Json | undefined): string[] {
  return Array.isArray(refs) ? refs.filter(isObject).map((r) => `${String(r.kind)}/${String(r.name)}`) : [];
}

function nameIn(o: unknown): string | undefined {
  const name = metadataOf(o).name;
  return typeof name === 'string' ? name : undefined;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/** `o` with its namespace set from the request's URL where the body leaves it out (as clients may). */
function withNamespace(o: JsonObject, namespace: string | undefined): JsonObject {
  const m = metadataOf(o);
  if (namespace === undefined || typeof m.namespace === 'string') return o;
  return { ...o, metadata: { ...m, namespace } };
}

/** A placeholder for a write to an object the library does not hold: its answer is the 404. */
function emptyObject(key: ObjectKey, kind: string): KubeObject {
  return toKubeObject({ metadata: { name: key.slice(kind.length + 1) } }, kind, 1);
}

/**
 * The recorded write removed the object: a DELETE answered with a Status, or with the object
 * and no finalizers left; any write answered with the object being deleted and no finalizers
 * left (the last one's removal: store.go Update's deleteObj, v0.30.0).
 */
function removedIn(e: AuditEvent): boolean {
  const o = e.responseObject;
  if (e.verb === 'delete' && isObject(o) && o.kind === 'Status') return true;
  if (!isKindObject(o)) return false;
  const m = metadataOf(o);
  const none = !Array.isArray(m.finalizers) || m.finalizers.length === 0;
  // (A Pod in its grace period has no finalizers and is still there.)
  const grace = typeof m.deletionGracePeriodSeconds === 'number' && m.deletionGracePeriodSeconds > 0;
  return none && !grace && e.verb !== 'get' && (e.verb === 'delete' || typeof m.deletionTimestamp === 'string');
}

function libraryAnswer(r: Made, before: KubeObject | undefined): Answer {
  const response = r.response;
  if (!('object' in response)) return { code: response.code, reason: response.reason };
  const o = response.object;
  return {
    code: response.code,
    object: {
      finalizers: o.finalizers.toArray(),
      deleting: o.deletionTimestamp !== null || response.removed,
      removed: response.removed,
      generation: o.generation,
      wrote: response.removed || before === undefined || o.resourceVersion !== before.resourceVersion,
      labels: canonical(o.labels.toObject()),
      annotations: canonical(o.annotations.toObject()),
      owners: o.ownerReferences.toArray().map((k) => k.split('/')[0] + '/' + k.split('/').at(-1)),
    },
  };
}

/** The fields in which the two answers differ. */
function compare(recorded: Answer, library: Answer, orphanFalse: boolean): string[] {
  const diff: string[] = [];
  const both = (what: string, a: unknown, b: unknown) => diff.push(`${what}: ${a} (recorded) vs ${b} (library)`);
  // 202 Accepted: a DELETE that left the object, sent with orphanDependents false (handlers delete.go).
  const code = recorded.code === 202 && orphanFalse && library.code === 200 && library.object?.removed === false ? 200 : recorded.code;
  if (code !== library.code) both('code', recorded.code, library.code);
  const r = recorded.object;
  const l = library.object;
  if (diff.length > 0 || r === undefined || l === undefined) return diff;
  if (r.removed !== l.removed) both('removed', r.removed, l.removed);
  if (r.removed) return diff;
  if (List(r.finalizers).equals(List(l.finalizers)) === false)
    both('finalizers', `[${r.finalizers.join(', ')}]`, `[${l.finalizers.join(', ')}]`);
  if (r.deleting !== l.deleting) both('deletionTimestamp set', r.deleting, l.deleting);
  if (r.generation !== undefined && r.generation !== l.generation) both('generation', r.generation, l.generation);
  if (r.wrote !== undefined && r.wrote !== l.wrote) both('wrote (a new resourceVersion)', r.wrote, l.wrote);
  if (r.labels !== undefined && r.labels !== l.labels) both('labels', r.labels, l.labels);
  if (r.annotations !== undefined && r.annotations !== l.annotations) both('annotations', r.annotations, l.annotations);
  if (r.owners !== undefined && l.owners !== undefined && r.owners.join(',') !== l.owners.join(','))
    both('ownerReferences', `[${r.owners.join(', ')}]`, `[${l.owners.join(', ')}]`);
  return diff;
}

/** What the library leaves out that a divergence of `e` may come from. */
function noteFor(e: AuditEvent, ref: ObjectReference): string | undefined {
  const builtIn = !ref.apiGroup || ref.apiGroup.endsWith('.k8s.io') || !ref.apiGroup.includes('.');
  if (e.verb === 'patch' && builtIn && isObject(e.requestObject))
    return "the log does not say a patch's content type; an object patch is replayed as a JSON merge patch, and a built-in kind's strategic merge patch merges some lists (metadata.finalizers among them) instead of replacing them";
  if (builtIn)
    return "a built-in kind: its strategy (defaulting, generation, graceful deletion) may differ from a custom resource's, which is the library's";
  return undefined;
}
