// How Kubernetes things read in a trace: a request as `PATCH Cluster/c1 (merge) {...}` with the
// API server's answer, and the world as subjects (`source Cluster/c1`, `capi cache Cluster/c1`)
// with Kubernetes' own field paths (`metadata.finalizers`), so that a trace diff says
// `source Cluster/c1 metadata.finalizers: [] -> [x]`. Only reports use this; the search never does.
import { List, OrderedMap, isList } from 'immutable';
import type { ApiRequest, ApiResponse, MergePatch, WatchEvent } from './apiServer.ts';
import { condition, ownerReferencesOf, type Condition, type KubeObject, type OwnerReferenceView } from './object.ts';
import { worldMaps, type KubeWorld, type Reconcile } from './world.ts';

/** The request line: verb, object and, for a patch, its body as the client sends it. */
export function describeRequest(r: ApiRequest): string {
  switch (r.verb) {
    case 'CREATE': {
      const body = r.body as KubeObject;
      return body.name === '' && body.generateName !== '' ? `CREATE ${r.key} (generateName ${body.generateName})` : `CREATE ${r.key}`;
    }
    case 'DELETE': {
      const p = r.preconditions;
      if (p === undefined) return `DELETE ${r.key}`;
      const checks = [
        ...(p.uid !== undefined ? [`uid ${p.uid}`] : []),
        ...(p.resourceVersion !== undefined ? [`resourceVersion ${p.resourceVersion}`] : []),
      ];
      const parts = [
        ...(checks.length > 0 ? [`preconditions: ${checks.join(', ')}`] : []),
        ...(p.propagationPolicy !== undefined ? [`propagationPolicy ${p.propagationPolicy}`] : []),
      ];
      return parts.length === 0 ? `DELETE ${r.key}` : `DELETE ${r.key} (${parts.join('; ')})`;
    }
    case 'PUT':
      return `PUT ${r.key} (resourceVersion ${(r.body as KubeObject).resourceVersion})`;
    case 'PATCH': {
      const body = r.body as MergePatch | { jsonPatchAnnotations: Readonly<Record<string, string>> };
      if ('jsonPatchAnnotations' in body) {
        const op = [{ op: 'add', path: '/metadata/annotations', value: body.jsonPatchAnnotations }];
        return `PATCH ${r.key} (JSON patch) ${JSON.stringify(op)}`;
      }
      return `PATCH ${r.key} (merge) ${JSON.stringify(mergePatchJson(body, r.resourceVersion))}`;
    }
  }
}

/** A merge patch in the shape Kubernetes receives it. */
function mergePatchJson(p: MergePatch, resourceVersion: number | undefined): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (resourceVersion !== undefined) metadata.resourceVersion = String(resourceVersion);
  if (p.finalizers !== undefined) metadata.finalizers = isList(p.finalizers) ? p.finalizers.toArray() : [...p.finalizers];
  if (p.annotations !== undefined) metadata.annotations = p.annotations;
  if (p.labels !== undefined) metadata.labels = p.labels;
  const out: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) out.metadata = metadata;
  if (p.spec !== undefined) out.spec = p.spec;
  if (p.conditions !== undefined || p.status !== undefined) {
    out.status = {
      ...p.status,
      ...(p.conditions !== undefined
        ? { conditions: Object.entries(p.conditions).map(([type, init]) => conditionJson(type, condition(init))) }
        : {}),
    };
  }
  return out;
}

/** A condition as the API carries it, with only the fields that are set. */
function conditionJson(type: string, c: Condition): Record<string, unknown> {
  return {
    type,
    status: c.status ? 'True' : 'False',
    ...(c.observedGeneration !== 0 ? { observedGeneration: c.observedGeneration } : {}),
    ...(c.reason !== '' ? { reason: c.reason } : {}),
    ...(c.message !== '' ? { message: c.message } : {}),
  };
}

/**
 * A condition in a trace: its status, then what else is set, e.g. `True (observedGeneration 2,
 * reason Paused, message "...")`; `brief` leaves out reason and message (for pending events).
 */
export function describeCondition(c: Condition, brief = false): string {
  const rest: string[] = [];
  if (c.observedGeneration !== 0) rest.push(`observedGeneration ${c.observedGeneration}`);
  if (!brief && c.reason !== '') rest.push(`reason ${c.reason}`);
  if (!brief && c.message !== '') rest.push(`message ${JSON.stringify(c.message)}`);
  return `${c.status ? 'True' : 'False'}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}`;
}

/** The answer line: the status code, its reason, and what a success did to the object. */
export function describeAnswer(request: ApiRequest, r: ApiResponse): string {
  switch (r.code) {
    case 201:
      return '201 Created';
    case 200: {
      if (r.removed) return '200 OK: the object is removed from storage';
      if (request.verb === 'DELETE' && r.object.deletionTimestamp !== null) {
        return `200 OK: deletionTimestamp set, kept for its finalizers [${r.object.finalizers.join(', ')}]`;
      }
      return '200 OK';
    }
    case 404:
      return `404 NotFound: ${r.reason}`;
    case 409:
      return `409 Conflict: ${r.reason}`;
    case 422:
      return `422 Invalid: ${r.reason}`;
  }
}

/**
 * An object's fields under their Kubernetes paths; resourceVersion and generation 0 (left out of
 * a cache's view, or never stored) are left out.
 */
export function objectView(o: KubeObject): OrderedMap<string, unknown> {
  const fields: [string, unknown][] = [];
  if (o.namespace !== '') fields.push(['metadata.namespace', o.namespace]);
  if (o.uid !== '') fields.push(['metadata.uid', o.uid]);
  if (o.generateName !== '') fields.push(['metadata.generateName', o.generateName]);
  if (o.resourceVersion !== 0) fields.push(['metadata.resourceVersion', o.resourceVersion]);
  if (o.generation !== 0) fields.push(['metadata.generation', o.generation]);
  fields.push(['metadata.deletionTimestamp', o.deletionTimestamp]);
  fields.push(['metadata.finalizers', `[${o.finalizers.join(', ')}]`]);
  for (const [k, v] of [...o.annotations.entries()].sort(byKey)) fields.push([`metadata.annotations.${k}`, v]);
  for (const [k, v] of [...o.labels.entries()].sort(byKey)) fields.push([`metadata.labels.${k}`, v]);
  if (!o.ownerReferences.isEmpty())
    fields.push(['metadata.ownerReferences', `[${ownerReferencesOf(o).map(describeOwnerReference).join(', ')}]`]);
  for (const [k, v] of [...o.spec.entries()].sort(byKey)) fields.push([`spec.${k}`, v]);
  for (const [k, v] of [...o.conditions.entries()].sort(byKey)) fields.push([`status.conditions.${k}`, describeCondition(v)]);
  for (const [k, v] of [...o.status.entries()].sort(byKey)) fields.push([`status.${k}`, v]);
  return OrderedMap(fields);
}

/** An ownerReference: its owner's key, then its uid, `controller` and `blockOwnerDeletion` where set. */
function describeOwnerReference(r: OwnerReferenceView): string {
  const rest = [
    ...(r.uid !== '' ? [`uid ${r.uid}`] : []),
    ...(r.controller ? ['controller'] : []),
    ...(r.blockOwnerDeletion ? ['blockOwnerDeletion'] : []),
  ];
  return rest.length === 0 ? r.key : `${r.key} (${rest.join(', ')})`;
}

/** A pending watch event in one line: its type and the fields it carries that are set. */
export function describeEvent(e: WatchEvent): string {
  const o = e.object;
  const parts: string[] = [];
  if (o.uid !== '') parts.push(`uid ${o.uid}`);
  if (o.resourceVersion !== 0) parts.push(`resourceVersion ${o.resourceVersion}`);
  if (o.generation !== 0) parts.push(`generation ${o.generation}`);
  if (o.deletionTimestamp !== null) parts.push(`deletionTimestamp ${o.deletionTimestamp}`);
  parts.push(`finalizers [${o.finalizers.join(', ')}]`);
  for (const [k, v] of [...o.spec.entries()].sort(byKey)) parts.push(`spec.${k} ${String(v)}`);
  for (const [k, v] of [...o.conditions.entries()].sort(byKey)) parts.push(`${k} ${describeCondition(v, true)}`);
  return `${e.type} (${parts.join(', ')})`;
}

/**
 * The world as subjects: each server's objects, each cache's objects and pending events, each
 * controller's queue and reconciles in flight. Sorted by key, so equal worlds read equally.
 */
export function worldView(world: KubeWorld): OrderedMap<string, unknown> {
  const w = worldMaps(world);
  const out: [string, unknown][] = [];
  for (const [server, srv] of w.servers) {
    for (const [key, o] of [...srv.objects.entries()].sort(byKey)) out.push([`${server} ${key}`, objectView(o)]);
  }
  for (const [manager, cache] of w.caches) {
    for (const [key, o] of [...cache.entries()].sort(byKey)) out.push([`${manager} cache ${key}`, objectView(o)]);
    const pending = w.pending.get(manager);
    for (const [key, events] of [...(pending?.entries() ?? [])].sort(byKey)) {
      out.push([`${manager} watch events ${key}`, List(events.map(describeEvent))]);
    }
    // Shown only where objects of one kind have events pending: the informer's order of them.
    for (const [kind, order] of [...(w.order.get(manager)?.entries() ?? [])].sort(byKey)) {
      const arrived = order.arrived > 0 ? ` (the first ${order.arrived} in its DeltaFIFO)` : '';
      out.push([`${manager} watch order ${kind}`, `[${order.keys.join(', ')}]${arrived}`]);
    }
  }
  // A key waiting for its RequeueAfter delay is held as `~key` (kubernetes.ts waitingKey).
  const queued = (k: string) => (k.startsWith('~') ? `${k.slice(1)} (after RequeueAfter)` : k);
  for (const [controller, queue] of w.queues) out.push([`${controller} queue`, `[${[...queue].sort().map(queued).join(', ')}]`]);
  for (const [controller, inFlight] of w.reconciles) {
    for (const [key, r] of [...inFlight.entries()].sort(byKey)) out.push([`${controller} reconcile ${key}`, reconcileView(r)]);
  }
  for (const [controller, written] of w.written) {
    for (const [key, objects] of [...written.entries()].sort(byKey)) {
      const list = [...objects.entries()].sort(byKey).map(([k, rv]) => `${k} at resourceVersion ${rv}`);
      out.push([`${controller} waits for its writes ${key}`, `[${list.join(', ')}]`]);
    }
  }
  for (const [server, g] of w.gc) {
    const virtual = [...g.virtual.entries()]
      .sort(byKey)
      .map(([uid, n]) => `${uid} as ${n.key}${n.namespace !== '' ? ` in ${n.namespace}` : ''}`);
    out.push([`${server} garbage collector virtual owners`, `[${virtual.join(', ')}]`]);
    out.push([`${server} garbage collector attemptToDelete queue`, `[${[...g.queue].sort().join(', ')}]`]);
    out.push([`${server} garbage collector absent owners`, `[${[...g.absent].sort().join(', ')}]`]);
  }
  // Shown only while a restart budget lasts, so that fault-free traces read as before.
  if (w.restartsLeft > 0) out.push(['controller-manager restarts left', w.restartsLeft]);
  return OrderedMap(out);
}

function reconcileView(r: Reconcile): OrderedMap<string, unknown> {
  return OrderedMap<string, unknown>([
    ['step', r.step],
    ...[...r.locals.entries()].sort(byKey).map(([k, v]) => [k, v] as [string, unknown]),
  ]);
}

function byKey(a: readonly [string, unknown], b: readonly [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
