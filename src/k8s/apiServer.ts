// The API server's storage rules, as pure functions from a store and a request to the new store,
// the answer and the watch event the write produced. Each request is atomic. The rules follow
// the generic registry store and apimachinery's ObjectMeta validation; see
// docs/capi-semantics.md, "Kubernetes API server rules".
// Who receives the watch events is not decided here (world.ts fans them out).
import { List, Map, type RecordOf } from 'immutable';
import { FlatRecord } from '../engine/values/flatRecord.ts';
import { recall, remember, requestKey, type Outcome } from './writeMemo.ts';
import { firstIdentities, type Identities } from './identities.ts';
import {
  addsFinalizer,
  condition,
  isDeleting,
  keyOf,
  type ConditionInit,
  type FieldValue,
  type KubeObject,
  type ObjectKey,
} from './object.ts';

export interface ApiServerProps {
  objects: Map<ObjectKey, KubeObject>;
}
export type ApiServer = RecordOf<ApiServerProps>;
export const ApiServer = FlatRecord<ApiServerProps>({ objects: Map() }, 'ApiServer');

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export interface WatchEventProps {
  type: WatchEventType;
  object: KubeObject;
}
export type WatchEvent = RecordOf<WatchEventProps>;
export const WatchEvent = FlatRecord<WatchEventProps>({ type: 'ADDED', object: undefined as unknown as KubeObject }, 'WatchEvent');

export const NO_NEW_FINALIZERS = 'no new finalizers can be added if the object is being deleted';

export type ApiResponse =
  | {
      readonly code: 200 | 201;
      /** The object as the request left it (for a removed object: its last state). */
      readonly object: KubeObject;
      /** The request removed the object from storage. */
      readonly removed: boolean;
    }
  | { readonly code: 404 | 409 | 422; readonly reason: string };

/** What was asked, for the trace's readers: the verb, the object and the body sent, if any. */
export interface ApiRequest {
  readonly verb: 'CREATE' | 'PATCH' | 'PUT' | 'DELETE';
  /** For a CREATE with generateName: the key under the name the server made. */
  readonly key: ObjectKey;
  /** A patch's precondition (MergeFromWithOptimisticLock): the resourceVersion it was made from. */
  readonly resourceVersion?: number;
  /** A DELETE's preconditions (metav1.Preconditions), where it sent any. */
  readonly preconditions?: Preconditions;
  /** A merge patch, `annotations` for a JSON patch, or the object sent by CREATE and PUT. */
  readonly body?: MergePatch | { readonly jsonPatchAnnotations: Readonly<globalThis.Record<string, string>> } | KubeObject;
}

export interface ApiResult {
  readonly request: ApiRequest;
  readonly server: ApiServer;
  readonly response: ApiResponse;
  /** The watch event, for a request that persisted a change; none for reads and no-ops. */
  readonly event?: WatchEvent;
}

/** A JSON merge patch (RFC 7386) on the fields the model has. Arrays are replaced whole. */
export interface MergePatch {
  readonly finalizers?: readonly string[] | List<string>;
  /** Per key; `null` removes the annotation. */
  readonly annotations?: Readonly<globalThis.Record<string, string | null>>;
  /** Per key; `null` removes the label. */
  readonly labels?: Readonly<globalThis.Record<string, string | null>>;
  /** Per field; `null` removes the field (RFC 7386), as `{"spec":{"paused":null}}` does. */
  readonly spec?: Readonly<globalThis.Record<string, FieldValue>>;
  /** status.conditions by type, each whole; a status subresource patch in the real API. */
  readonly conditions?: Readonly<globalThis.Record<string, ConditionInit>>;
  /** Other status fields; a status subresource patch in the real API. */
  readonly status?: Readonly<globalThis.Record<string, FieldValue>>;
}

/**
 * DeleteOptions: Preconditions (the DELETE applies only to the object with this uid and/or
 * resourceVersion) and the propagation policy.
 */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: number;
  /**
   * What becomes of the dependents (metav1.DeletionPropagation): `Foreground` keeps the object
   * (finalizer `foregroundDeletion`) until the garbage collector has deleted the dependents that
   * block it; `Orphan` keeps it (finalizer `orphan`) until the collector has removed their
   * references to it; `Background` (the default for custom resources) deletes it at once.
   */
  readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/** The garbage collector's finalizers (apimachinery meta/v1 types.go FinalizerOrphanDependents, FinalizerDeleteDependents). */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * A kind's validation, as its CRD's schema, CEL rules or a validating webhook would refuse a
 * write: the reason for a 422 Invalid, or undefined to accept. `old` is the stored object
 * (undefined on create), `next` the object as the write would store it. Must be a function of
 * its arguments alone.
 */
export type Validator = (old: KubeObject | undefined, next: KubeObject) => string | undefined;

/** What an environment says about a kind's writes (KubernetesConfig: withoutStatusSubresource, validation). */
export interface KindRules {
  /** The kind has no status subresource: an update writes the status too, and a status change is a new generation. */
  readonly writesStatus?: boolean;
  readonly validate?: Validator;
}

export function emptyServer(objects: Iterable<KubeObject> = []): ApiServer {
  return ApiServer({ objects: Map([...objects].map((o) => [keyOf(o), o] as const)) });
}

/** GET: a read never changes the store. */
export function get(server: ApiServer, key: ObjectKey): ApiResponse {
  const o = server.objects.get(key);
  return o ? { code: 200, object: o, removed: false } : { code: 404, reason: `${key} not found` };
}

/**
 * CREATE: 409 AlreadyExists if the name is taken; the new object starts at resourceVersion 1.
 * Without a name, the server makes one from generateName (`fresh.name`: identities.ts); without
 * either, 422. The server sets the UID (`fresh.uid`), whatever the client sent (apiserver
 * rest/meta.go FillObjectMetaSystemFields, WipeObjectMetaSystemFields: docs/kubernetes-semantics.md 1, 2).
 */
export function create(
  server: ApiServer,
  obj: KubeObject,
  options: { readonly fresh?: Identities; readonly validate?: Validator } = {},
): ApiResult {
  const fresh = options.fresh ?? firstIdentities(false);
  let body = obj;
  if (obj.name === '') {
    if (obj.generateName === '') {
      const request: ApiRequest = { verb: 'CREATE', key: `${obj.kind}/`, body: obj };
      return {
        request,
        server,
        response: { code: 422, reason: `${obj.kind} is invalid: metadata.name: Required value: name or generateName is required` },
      };
    }
    body = obj.set('name', fresh.name(obj.kind, obj.generateName));
  }
  const key = keyOf(body);
  const request: ApiRequest = { verb: 'CREATE', key, body: obj };
  const taken = server.objects.get(key);
  if (taken !== undefined) {
    // store.go Create 507-510 (an object being deleted) and rest/create.go 144-169 with
    // apimachinery errors.NewGenerateNameConflict (a generated name that is taken), v0.30.0.
    const reason = isDeleting(taken)
      ? `object is being deleted: ${key} already exists`
      : obj.name === ''
        ? `${key} already exists, the server was not able to generate a unique name for the object`
        : `${key} already exists`;
    return { request, server, response: { code: 409, reason } };
  }
  const refused = metadataRefusal(obj);
  if (refused !== undefined) return invalid(request, server, key, refused);
  // The server owns resourceVersion and deletionTimestamp; a client cannot create a deleting
  // object. Status (the conditions too) is not written by a CREATE: with a status subresource,
  // as every kind here has, the server drops it and only a status write sets it (apiextensions
  // customresource strategy.go PrepareForCreate), which also sets generation 1.
  const stored = body.merge({
    uid: fresh.uid(key),
    resourceVersion: 1,
    generation: 1,
    deletionTimestamp: null,
    conditions: Map(),
    status: Map(),
  });
  const declined = options.validate?.(undefined, stored);
  if (declined !== undefined) return invalid(request, server, key, declined);
  return persist(request, server, key, stored, 'ADDED', 201);
}

/**
 * What apimachinery's ValidateObjectMeta refuses in any write's metadata, of what objects here
 * hold (pkg/api/validation/objectmeta.go at v0.30.0): two owner references with controller set
 * (ValidateOwnerReferences), and both garbage-collector finalizers (ValidateFinalizers 210-212).
 * The store runs it on a create and on an update alike (rest/create.go 129, rest/update.go 87-101):
 * here in create, and for every other write in writeOutcome.
 */
function metadataRefusal(obj: KubeObject): string | undefined {
  if (obj.ownerRefs.count((r) => r.controller) > 1) {
    const [a, b] = [...obj.ownerRefs.filter((r) => r.controller).keys()];
    return `metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true. Found "true" in references for ${a} and ${b}`;
  }
  if (obj.finalizers.includes(ORPHAN_FINALIZER) && obj.finalizers.includes(FOREGROUND_FINALIZER)) {
    return `metadata.finalizers: Invalid value: "${ORPHAN_FINALIZER}": finalizer ${ORPHAN_FINALIZER} and ${FOREGROUND_FINALIZER} cannot be both set`;
  }
  return undefined;
}

function invalid(request: ApiRequest, server: ApiServer, key: ObjectKey, reason: string): ApiResult {
  return { request, server, response: { code: 422, reason: `${key} is invalid: ${reason}` } };
}

/**
 * A JSON merge patch, applied to the latest stored object. Without a resourceVersion it never
 * conflicts; with one (controller-runtime's MergeFromWithOptimisticLock puts the client's copy's
 * resourceVersion in the patch) it gets 409 Conflict unless that is the stored one: the patched
 * object keeps the patch's resourceVersion and meets the update's check (apiserver registry
 * store.go Update, 713-715, at v0.31.3). The
 * finalizer list, if given, replaces the stored one whole.
 */
export function mergePatch(
  server: ApiServer,
  key: ObjectKey,
  patch: MergePatch,
  resourceVersion?: number,
  rules: KindRules = {},
): ApiResult {
  const request: ApiRequest = { verb: 'PATCH', key, body: patch, ...(resourceVersion !== undefined ? { resourceVersion } : {}) };
  const stored = server.objects.get(key);
  if (!stored) return notFound(request, server, key);
  if (resourceVersion !== undefined && resourceVersion !== stored.resourceVersion) return conflict(request, server, key);
  const memo = requestKey('P', patch);
  const kept = memo === undefined ? undefined : recall(stored, memo);
  if (kept !== undefined) return answer(request, server, key, stored, kept, rules.validate);
  let next = stored;
  if (patch.finalizers !== undefined) next = next.set('finalizers', List(patch.finalizers));
  if (patch.annotations !== undefined) {
    next = next.update('annotations', (a) =>
      Object.entries(patch.annotations!).reduce((acc, [k, v]) => (v === null ? acc.delete(k) : acc.set(k, v)), a),
    );
  }
  if (patch.labels !== undefined) {
    next = next.update('labels', (a) =>
      Object.entries(patch.labels!).reduce((acc, [k, v]) => (v === null ? acc.delete(k) : acc.set(k, v)), a),
    );
  }
  if (patch.spec !== undefined) {
    next = next.update('spec', (s) => Object.entries(patch.spec!).reduce((acc, [k, v]) => (v === null ? acc.delete(k) : acc.set(k, v)), s));
  }
  if (patch.conditions !== undefined) {
    next = next.update('conditions', (c) =>
      Object.entries(patch.conditions!).reduce((acc, [type, init]) => acc.set(type, condition(init)), c),
    );
  }
  if (patch.status !== undefined) {
    next = next.update('status', (st) =>
      Object.entries(patch.status!).reduce((acc, [k, v]) => (v === null ? acc.delete(k) : acc.set(k, v)), st),
    );
  }
  return answer(request, server, key, stored, written(stored, next, memo), rules.validate);
}

/**
 * A JSON patch `add /metadata/annotations` (RFC 6902): `add` on an existing member replaces it,
 * so the whole annotation map becomes `annotations`. No resourceVersion, so no conflict.
 */
export function jsonPatchAddAnnotations(
  server: ApiServer,
  key: ObjectKey,
  annotations: Readonly<globalThis.Record<string, string>>,
): ApiResult {
  const request: ApiRequest = { verb: 'PATCH', key, body: { jsonPatchAnnotations: annotations } };
  const stored = server.objects.get(key);
  if (!stored) return notFound(request, server, key);
  const memo = requestKey('J', annotations);
  const kept = memo === undefined ? undefined : recall(stored, memo);
  return answer(request, server, key, stored, kept ?? written(stored, stored.set('annotations', Map(annotations)), memo));
}

/**
 * UPDATE (PUT) with the client's copy: 409 Conflict when its resourceVersion is not the stored
 * one. Status is not the client's to set here: with a status subresource the stored status
 * (conditions included) is kept (apiextensions customresource strategy.go PrepareForUpdate,
 * 166-175). A kind without one (`writesStatus`: its CRD declares no `subresources.status`) takes
 * the copy's status too, and then any change outside metadata, status included, is a new
 * generation (the same PrepareForUpdate: it compares everything but metadata). deletionTimestamp is the server's: when the stored object has one, it is kept whatever the
 * client sent (apiserver rest.BeforeUpdate); when it has none, the field is immutable, and a copy
 * that carries one is refused with 422 Invalid (apimachinery ValidateObjectMetaAccessorUpdate).
 * docs/capi-semantics.md, "Kubernetes API server rules".
 */
export function update(server: ApiServer, obj: KubeObject, rules: KindRules = {}): ApiResult {
  const writesStatus = rules.writesStatus === true;
  const key = keyOf(obj);
  const request: ApiRequest = { verb: 'PUT', key, body: obj };
  const stored = server.objects.get(key);
  if (!stored) return notFound(request, server, key);
  // A uid in the body is a precondition (apiserver rest/update.go defaultUpdatedObjectInfo
  // Preconditions): another incarnation's copy gets 409. Without one, the stored uid is kept.
  if (obj.uid !== '' && obj.uid !== stored.uid) return uidConflict(request, server, key, obj.uid, stored.uid);
  // A PUT without a resourceVersion: a custom resource allows no unconditional update
  // (apiextensions customresource strategy.go AllowUnconditionalUpdate false; store.go Update
  // 692-699, v0.30.0).
  if (obj.resourceVersion === 0)
    return invalid(request, server, key, 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  if (obj.resourceVersion !== stored.resourceVersion) return conflict(request, server, key);
  if (!isDeleting(stored) && isDeleting(obj)) {
    return {
      request,
      server,
      response: {
        code: 422,
        reason: `${key} is invalid: metadata.deletionTimestamp: Invalid value: ${obj.deletionTimestamp}: field is immutable`,
      },
    };
  }
  const memo = requestKey(writesStatus ? 'W' : 'U', obj);
  const kept = memo === undefined ? undefined : recall(stored, memo);
  if (kept !== undefined) return answer(request, server, key, stored, kept, rules.validate);
  const next = writesStatus
    ? obj.merge({ uid: stored.uid, deletionTimestamp: stored.deletionTimestamp, generation: stored.generation })
    : obj.merge({
        uid: stored.uid,
        deletionTimestamp: stored.deletionTimestamp,
        generation: stored.generation,
        conditions: stored.conditions,
        status: stored.status,
      });
  return answer(request, server, key, stored, written(stored, next, memo, writesStatus), rules.validate);
}

/**
 * DELETE. With finalizers: set deletionTimestamp and keep the object (grace period 0); a
 * repeated DELETE of a deleting object succeeds and changes nothing. Without finalizers: the
 * object is removed at once. With preconditions, an object whose uid or resourceVersion is not
 * the one given gets 409 Conflict, checked before anything else, a deleting object too
 * (apiserver registry store.go Delete and rest/delete.go BeforeDelete:
 * docs/kubernetes-semantics.md 3).
 */
export function del(server: ApiServer, key: ObjectKey, preconditions?: Preconditions): ApiResult {
  const request: ApiRequest = { verb: 'DELETE', key, ...(preconditions !== undefined ? { preconditions } : {}) };
  const stored = server.objects.get(key);
  if (!stored) return notFound(request, server, key);
  if (preconditions?.uid !== undefined && preconditions.uid !== stored.uid) {
    return uidConflict(request, server, key, preconditions.uid, stored.uid);
  }
  if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== stored.resourceVersion) {
    return {
      request,
      server,
      response: {
        code: 409,
        reason: `Operation cannot be fulfilled on ${key}: the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${stored.resourceVersion}). The object might have been modified`,
      },
    };
  }
  const memo = preconditions?.propagationPolicy === undefined ? DELETE : `D${preconditions.propagationPolicy}`;
  const kept = recall(stored, memo);
  if (kept !== undefined) return answer(request, server, key, stored, kept);
  let outcome: Outcome;
  // The garbage collector's finalizers the DELETE leaves (store.go deletionFinalizersForGarbageCollection
  // 941-970, shouldOrphanDependents 848-890, shouldDeleteDependents 897-931), also on an object
  // already being deleted: a custom resource has no graceful deletion pending, so a DELETE with
  // another policy updates them (store.go Delete 1129-1163, v0.31.3), and one that leaves none
  // removes the object.
  const finalizers = gcFinalizers(stored.finalizers, preconditions?.propagationPolicy);
  if (finalizers.isEmpty()) outcome = removal(stored);
  else if (isDeleting(stored)) {
    outcome =
      finalizers === stored.finalizers
        ? UNCHANGED
        : { kind: 'stored', object: stored.merge({ finalizers, resourceVersion: stored.resourceVersion + 1 }) };
  } else {
    // Marking is a stored update like any other (registry store Delete ->
    // updateForGracefulDeletionAndFinalizers -> GuaranteedUpdate): a new resourceVersion. It
    // bumps generation too, for a kind that has one (store.go markAsDeleting, 997-999, v0.31.3).
    const rv = stored.resourceVersion + 1;
    const generation = stored.generation > 0 ? stored.generation + 1 : 0;
    outcome = { kind: 'stored', object: stored.merge({ finalizers, deletionTimestamp: rv, resourceVersion: rv, generation }) };
  }
  return answer(request, server, key, stored, remember(stored, memo, outcome));
}

/**
 * `finalizers` with the garbage collector's as a DELETE with `policy` leaves them: both removed,
 * then `orphan` for Orphan (or no policy and `orphan` there), `foregroundDeletion` for Foreground
 * (or no policy and `foregroundDeletion` there). The same list when nothing changes.
 */
function gcFinalizers(finalizers: List<string>, policy: Preconditions['propagationPolicy']): List<string> {
  const orphan = policy === 'Orphan' || (policy === undefined && finalizers.includes(ORPHAN_FINALIZER));
  const foreground = policy === 'Foreground' || (policy === undefined && !orphan && finalizers.includes(FOREGROUND_FINALIZER));
  if (orphan === finalizers.includes(ORPHAN_FINALIZER) && foreground === finalizers.includes(FOREGROUND_FINALIZER)) return finalizers;
  let next = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) next = next.push(ORPHAN_FINALIZER);
  if (foreground) next = next.push(FOREGROUND_FINALIZER);
  return next;
}

/** The memo's key of a DELETE (it has no body). */
const DELETE = 'D';
const UNCHANGED: Outcome = { kind: 'unchanged' };

/**
 * The checks and effects shared by every write of an existing object: what writing `next` over
 * `stored` does, kept under `memo` (the request's key: writeMemo.ts) where there is one.
 */
function written(stored: KubeObject, next: KubeObject, memo: string | undefined, statusIsSpec = false): Outcome {
  const outcome = writeOutcome(stored, next, statusIsSpec);
  return memo === undefined ? outcome : remember(stored, memo, outcome);
}

/** `statusIsSpec`: the kind has no status subresource, so a change of its status is a new generation too. */
function writeOutcome(stored: KubeObject, next: KubeObject, statusIsSpec = false): Outcome {
  // Kept in the write's memo with its outcome, so a search asks it once per stored version and body.
  const refused = metadataRefusal(next);
  if (refused !== undefined) return { kind: 'refused', reason: `${keyOf(stored)} is invalid: ${refused}` };
  // apimachinery ValidateObjectMetaUpdate: compared with the STORED object, not the client's
  // copy, so a stale cache that does not show the deletionTimestamp still gets the 422.
  if (isDeleting(stored) && addsFinalizer(stored, next.finalizers)) {
    // objectmeta.go ValidateObjectMetaUpdate 121-128 (v0.30.0): the new ones, sorted, as Go prints a []string.
    const added = [...new Set(next.finalizers.filter((f) => !stored.finalizers.includes(f)))].sort();
    const found = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
    return {
      kind: 'refused',
      reason: `${keyOf(stored)} is invalid: metadata.finalizers: Forbidden: ${NO_NEW_FINALIZERS}, found new finalizers ${found}`,
    };
  }
  // A write that changes nothing is not persisted: no new resourceVersion, no event.
  if (next.set('resourceVersion', stored.resourceVersion).equals(stored)) return UNCHANGED;
  if (isDeleting(next) && next.finalizers.isEmpty()) return removal(next);
  // Anything outside metadata and status changed (here: spec): a new generation (apiextensions
  // customresource strategy.go PrepareForUpdate, 178-186). A status write keeps it.
  const same =
    next.spec.equals(stored.spec) && (!statusIsSpec || (next.status.equals(stored.status) && next.conditions.equals(stored.conditions)));
  const generation = same ? stored.generation : stored.generation + 1;
  return { kind: 'stored', object: next.merge({ resourceVersion: stored.resourceVersion + 1, generation }) };
}

/** A removal from storage of `last`: the DELETED event carries it at a new resourceVersion. */
function removal(last: KubeObject): Outcome {
  return { kind: 'removed', gone: last.set('resourceVersion', last.resourceVersion + 1) };
}

/**
 * The answer to `request`, a write of `stored` (at `key`) in `server` that did `outcome`;
 * `validate`, the kind's validation, may still refuse a new version (it is the environment's,
 * so it is asked here rather than kept in the memo with the outcome).
 */
function answer(
  request: ApiRequest,
  server: ApiServer,
  key: ObjectKey,
  stored: KubeObject,
  outcome: Outcome,
  validate?: Validator,
): ApiResult {
  if (validate !== undefined && outcome.kind === 'stored') {
    const refused = validate(stored, outcome.object);
    if (refused !== undefined) return invalid(request, server, key, refused);
  }
  switch (outcome.kind) {
    case 'refused':
      return { request, server, response: { code: 422, reason: outcome.reason } };
    case 'unchanged':
      return { request, server, response: { code: 200, object: stored, removed: false } };
    case 'removed':
      return {
        request,
        server: server.set('objects', server.objects.delete(key)),
        response: { code: 200, object: outcome.gone, removed: true },
        event: WatchEvent({ type: 'DELETED', object: outcome.gone }),
      };
    case 'stored':
      return persist(request, server, key, outcome.object, 'MODIFIED', 200);
  }
}

function conflict(request: ApiRequest, server: ApiServer, key: ObjectKey): ApiResult {
  return {
    request,
    server,
    response: {
      code: 409,
      reason: `Operation cannot be fulfilled on ${key}: the object has been modified; please apply your changes to the latest version and try again`,
    },
  };
}

function persist(
  request: ApiRequest,
  server: ApiServer,
  key: ObjectKey,
  obj: KubeObject,
  type: WatchEventType,
  code: 200 | 201,
): ApiResult {
  return {
    request,
    server: server.set('objects', server.objects.set(key, obj)),
    response: { code, object: obj, removed: false },
    event: WatchEvent({ type, object: obj }),
  };
}

function uidConflict(request: ApiRequest, server: ApiServer, key: ObjectKey, sent: string, stored: string): ApiResult {
  return {
    request,
    server,
    response: {
      code: 409,
      reason: `Operation cannot be fulfilled on ${key}: the UID in the precondition (${sent}) does not match the UID in record (${stored}). The object might have been deleted and then recreated`,
    },
  };
}

function notFound(request: ApiRequest, server: ApiServer, key: ObjectKey): ApiResult {
  return { request, server, response: { code: 404, reason: `${key} not found` } };
}
