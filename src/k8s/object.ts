// Kubernetes objects as immutable state values: the metadata the API server's rules act on
// (resourceVersion, finalizers, deletionTimestamp, annotations, ownerReferences), a small spec
// and the status conditions. Field names are Kubernetes' own. Nothing here knows about any
// particular controller or about clusterctl.
import { List, Map, Record, type RecordOf } from 'immutable';

/** `Kind/name`, e.g. `Cluster/c1`. The model has one namespace, so the namespace is left out. */
export type ObjectKey = string;

export function objectKey(kind: string, name: string): ObjectKey {
  return `${kind}/${name}`;
}

/** A state value allowed in a spec field or a condition. */
export type FieldValue = string | number | boolean | null;

export interface KubeObjectProps {
  kind: string;
  name: string;
  /**
   * A per-object counter, bumped by every persisted write. Clients only compare an object's
   * resourceVersions with each other for equality, so a per-object counter keeps every
   * observable behaviour of the real (global, opaque) one without telling apart interleavings
   * of writes to unrelated objects. Inference.
   */
  resourceVersion: number;
  finalizers: List<string>;
  /** `null`, or the resourceVersion of the write that set it (a logical timestamp). */
  deletionTimestamp: number | null;
  annotations: Map<string, string>;
  /** ownerReferences, by key. */
  ownerReferences: List<ObjectKey>;
  spec: Map<string, FieldValue>;
  /** status.conditions (v1beta2 style): condition type to status True (true) or False (false). */
  conditions: Map<string, boolean>;
  /** The other status fields, by name (e.g. `infrastructureReady`, `nodeRef`). */
  status: Map<string, FieldValue>;
}

export type KubeObject = RecordOf<KubeObjectProps>;

export const KubeObject = Record<KubeObjectProps>(
  {
    kind: '',
    name: '',
    resourceVersion: 0,
    finalizers: List<string>(),
    deletionTimestamp: null,
    annotations: Map<string, string>(),
    ownerReferences: List<ObjectKey>(),
    spec: Map<string, FieldValue>(),
    conditions: Map<string, boolean>(),
    status: Map<string, FieldValue>(),
  },
  'KubeObject',
);

/** Builds an object from plain fields, for models and tests. */
export function kubeObject(fields: {
  kind: string;
  name: string;
  resourceVersion?: number;
  finalizers?: readonly string[];
  deletionTimestamp?: number | null;
  annotations?: Readonly<globalThis.Record<string, string>>;
  ownerReferences?: readonly ObjectKey[];
  spec?: Readonly<globalThis.Record<string, FieldValue>>;
  conditions?: Readonly<globalThis.Record<string, boolean>>;
  status?: Readonly<globalThis.Record<string, FieldValue>>;
}): KubeObject {
  return KubeObject({
    kind: fields.kind,
    name: fields.name,
    resourceVersion: fields.resourceVersion ?? 0,
    finalizers: List(fields.finalizers ?? []),
    deletionTimestamp: fields.deletionTimestamp ?? null,
    annotations: Map(fields.annotations ?? {}),
    ownerReferences: List(fields.ownerReferences ?? []),
    spec: Map(fields.spec ?? {}),
    conditions: Map(fields.conditions ?? {}),
    status: Map(fields.status ?? {}),
  });
}

export function keyOf(o: KubeObject): ObjectKey {
  return objectKey(o.kind, o.name);
}

export function isDeleting(o: KubeObject): boolean {
  return o.deletionTimestamp !== null;
}

export function hasFinalizer(o: KubeObject, finalizer: string): boolean {
  return o.finalizers.includes(finalizer);
}

/** controllerutil.AddFinalizer: appends the name unless present. */
export function withFinalizer(o: KubeObject, finalizer: string): List<string> {
  return hasFinalizer(o, finalizer) ? o.finalizers : o.finalizers.push(finalizer);
}

/** controllerutil.RemoveFinalizer: drops every occurrence of the name. */
export function withoutFinalizer(o: KubeObject, finalizer: string): List<string> {
  return o.finalizers.filter((f) => f !== finalizer);
}

/** Whether `next` carries a finalizer name that `prev` does not. */
export function addsFinalizer(prev: KubeObject, next: List<string>): boolean {
  return next.some((f) => !prev.finalizers.includes(f));
}
