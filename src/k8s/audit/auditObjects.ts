// Objects as an audit log shows them (JSON, as the API server serialized them) and as the
// library holds them (KubeObject). The library keys objects `Kind/name` in one namespace; a log
// spans namespaces, so here an object's library name is `namespace/name` (its key
// `Kind/namespace/name`), and its kind is the resource's (`configmaps`, `clusters.cluster.x-k8s.io`)
// until a body names it. What the library keeps of an object: its metadata as object.ts has it;
// every top-level field but apiVersion, kind, metadata and status as one spec entry each
// (`spec`, `data`, `rules`...), its value the field's JSON with keys sorted, so that a change
// anywhere in it is a change of the entry (what decides generation); status likewise, by status
// field. Real resourceVersions are opaque strings; the library's are per-object counters, and the
// replay keeps the correspondence (replayAudit.ts).
import type { KubeObject } from '../object.ts';
import { kubeObject } from '../object.ts';
import type { AuditEvent, ObjectReference } from './auditLog.ts';

/** A JSON value as JSON.parse gives it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON text with every object's keys sorted: equal values, equal texts. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The resource an event is about, as one name: `configmaps`, `clusters.cluster.x-k8s.io`. */
export function resourceOf(ref: ObjectReference): string {
  return ref.apiGroup ? `${ref.resource}.${ref.apiGroup}` : (ref.resource ?? '');
}

/** The library's name for an object of `namespace` (see the top of this file). */
export function libraryName(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** An object's metadata as the log shows it. */
export function metadataOf(o: unknown): JsonObject {
  return isObject(o) && isObject(o.metadata) ? o.metadata : {};
}

/** Whether `o` is an object of some kind (not a Status, DeleteOptions or a list). */
export function isKindObject(o: unknown): o is JsonObject {
  if (!isObject(o) || !isObject(o.metadata)) return false;
  // (meta.k8s.io: a Table for kubectl, PartialObjectMetadata for metadata clients: views, not the object.)
  if (typeof o.apiVersion === 'string' && o.apiVersion.startsWith('meta.k8s.io/')) return false;
  return o.kind !== 'Status' && o.kind !== 'DeleteOptions' && !(typeof o.kind === 'string' && o.kind.endsWith('List'));
}

/** Whether a JSON value has an object key starting with `$` (a strategic merge patch's directives). */
export function hasDirective(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasDirective);
  if (!isObject(v)) return false;
  return Object.entries(v).some(([k, x]) => k.startsWith('$') || hasDirective(x));
}

const NOT_SPEC = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * `o` as the library holds it, of library kind `kind`, with library resourceVersion `rv` and
 * deletionTimestamp `deleting` (the library's number) when it has one.
 */
export function toKubeObject(o: JsonObject, kind: string, rv: number): KubeObject {
  const m = metadataOf(o);
  const strings = (v: Json | undefined): Record<string, string> =>
    isObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  const refs = Array.isArray(m.ownerReferences) ? m.ownerReferences.filter(isObject) : [];
  const spec: Record<string, string> = {};
  for (const [field, value] of Object.entries(o)) if (!NOT_SPEC.has(field)) spec[field] = canonical(value);
  const status: Record<string, string> = {};
  if (isObject(o.status)) for (const [field, value] of Object.entries(o.status)) status[field] = canonical(value);
  const namespace = typeof m.namespace === 'string' ? m.namespace : '';
  return kubeObject({
    kind,
    name: typeof m.name === 'string' ? libraryName(namespace, m.name) : '',
    namespace,
    generateName: typeof m.generateName === 'string' ? m.generateName : '',
    uid: typeof m.uid === 'string' ? m.uid : '',
    resourceVersion: rv,
    generation: typeof m.generation === 'number' ? m.generation : 0,
    finalizers: Array.isArray(m.finalizers) ? m.finalizers.filter((f): f is string => typeof f === 'string') : [],
    deletionTimestamp: typeof m.deletionTimestamp === 'string' ? rv : null,
    annotations: strings(m.annotations),
    labels: strings(m.labels),
    ownerReferences: refs.map((r) => ({
      key: `${String(r.kind)}/${libraryName(namespace, String(r.name))}`,
      uid: typeof r.uid === 'string' ? r.uid : '',
      controller: r.controller === true,
      blockOwnerDeletion: r.blockOwnerDeletion === true,
    })),
    spec,
    status,
  });
}

/** RFC 7386 JSON merge patch: `patch` applied to `target`. */
export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** Resource (`configmaps`, `clusters.cluster.x-k8s.io`) -> Kind, into `into`, as the bodies of `events` name them. */
export function kindsNamedIn(events: Iterable<{ readonly event: AuditEvent }>, into: Map<string, string>): Map<string, string> {
  for (const { event } of events) {
    const ref = event.objectRef;
    if (ref?.resource === undefined || ref.subresource) continue;
    for (const body of [event.requestObject, event.responseObject]) {
      if (isKindObject(body) && typeof body.kind === 'string') into.set(resourceOf(ref), body.kind);
    }
  }
  return into;
}
