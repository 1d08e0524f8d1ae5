// Kubernetes objects as immutable state values: the metadata the API server's rules act on
// (resourceVersion, generation, finalizers, deletionTimestamp, annotations, ownerReferences), a
// small spec and the status conditions. Field names are Kubernetes' own. Nothing here knows about any
// particular controller or about clusterctl.
import { List, Map, type RecordOf } from 'immutable';
import { FlatRecord } from '../engine/values/flatRecord.ts';

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
   * metadata.namespace: '' for the model's one namespace (and for cluster-scoped kinds). Keys
   * stay `Kind/name`, so names must be unique across namespaces; the namespace is what the
   * garbage collector resolves an owner in (gcGraph.ts).
   */
  namespace: string;
  /**
   * metadata.generateName: the prefix the API server made the name from, when the client sent
   * no name (apiServer.ts create); '' otherwise.
   */
  generateName: string;
  /**
   * metadata.uid: '' where the environment gives no UIDs (KubernetesConfig.uids), else
   * `Kind/name#n`, the object's incarnation: a create gives the smallest n that nothing in the
   * state still refers to (identities.ts), so an object created again under its name while
   * anything remembers the old one has another UID, as with the real (random) ones.
   */
  uid: string;
  /**
   * A per-object counter, bumped by every persisted write. Clients only compare an object's
   * resourceVersions with each other for equality, so a per-object counter keeps every
   * observable behaviour of the real (global, opaque) one without telling apart interleavings
   * of writes to unrelated objects. Inference.
   */
  resourceVersion: number;
  /**
   * metadata.generation: 1 on create, bumped by a write that changes anything outside metadata
   * and status (here: spec) and by marking the object for deletion; 0 for an object the API
   * server has not stored yet. The rules are the custom-resource strategy's (apiServer.ts).
   */
  generation: number;
  finalizers: List<string>;
  /** `null`, or the resourceVersion of the write that set it (a logical timestamp). */
  deletionTimestamp: number | null;
  annotations: Map<string, string>;
  /** metadata.labels, what label selectors match (`matchesLabels`). */
  labels: Map<string, string>;
  /** ownerReferences, by key (`Kind/name`), in order. */
  ownerReferences: List<ObjectKey>;
  /**
   * The rest of each ownerReference that has more than its key: its owner's uid, `controller`
   * and `blockOwnerDeletion` (metav1.OwnerReference). A reference with no entry here names its
   * owner by kind and name alone (no uid: any object under that name is its owner).
   */
  ownerRefs: Map<ObjectKey, OwnerRef>;
  spec: Map<string, FieldValue>;
  /** status.conditions (metav1.Condition, v1beta2 style), by type. */
  conditions: Map<string, Condition>;
  /** The other status fields, by name (e.g. `infrastructureReady`, `nodeRef`). */
  status: Map<string, FieldValue>;
}

export type KubeObject = RecordOf<KubeObjectProps>;

/**
 * A status condition as metav1.Condition has it, less lastTransitionTime (which no controller
 * here compares): status True (true) or False (false), the generation its writer observed, and
 * the reason and message its writer gave.
 */
export interface ConditionProps {
  status: boolean;
  observedGeneration: number;
  reason: string;
  message: string;
}
export type Condition = RecordOf<ConditionProps>;
export const Condition = FlatRecord<ConditionProps>({ status: false, observedGeneration: 0, reason: '', message: '' }, 'Condition');

/** A condition as a model writes it: its status alone, or its fields (the rest empty). */
export type ConditionInit = boolean | Partial<ConditionProps> | Condition;

export function condition(init: ConditionInit): Condition {
  if (typeof init === 'boolean') return Condition({ status: init });
  return init instanceof Condition ? init : Condition(init);
}

/** The condition's status, or `undefined` when the object has no condition of that type. */
export function conditionStatus(o: KubeObject, type: string): boolean | undefined {
  return o.conditions.get(type)?.status;
}

/**
 * util/conditions/v1beta2 HasSameState: equal type, status, observedGeneration, reason and
 * message (lastTransitionTime is not compared).
 */
export function hasSameState(a: Condition, b: Condition): boolean {
  return a.equals(b);
}

/** What an ownerReference says besides its owner's key (metav1.OwnerReference). */
export interface OwnerRefProps {
  /** The owner's metadata.uid; '' for a reference by key alone. */
  uid: string;
  /** At most one reference of an object has it: its managing controller (metav1.GetControllerOf). */
  controller: boolean;
  /** With foreground deletion, the owner waits for this dependent (the garbage collector). */
  blockOwnerDeletion: boolean;
}
export type OwnerRef = RecordOf<OwnerRefProps>;
export const OwnerRef = FlatRecord<OwnerRefProps>({ uid: '', controller: false, blockOwnerDeletion: false }, 'OwnerRef');

/** An ownerReference as a model writes it: a key alone, or the key with the rest (`k8s.ownerReference(owner)` builds one). */
export type OwnerReferenceInit =
  | ObjectKey
  | { readonly key: ObjectKey; readonly uid?: string; readonly controller?: boolean; readonly blockOwnerDeletion?: boolean };

/** An ownerReference to `owner` (its key and uid), as controllerutil.SetControllerReference / SetOwnerReference write it. */
export function ownerReference(
  owner: KubeObject,
  options: { readonly controller?: boolean; readonly blockOwnerDeletion?: boolean } = {},
): OwnerReferenceInit {
  return {
    key: keyOf(owner),
    uid: owner.uid,
    controller: options.controller ?? false,
    blockOwnerDeletion: options.blockOwnerDeletion ?? false,
  };
}

/** An ownerReference as read: its owner's key and the rest ('' and false where it names the owner by key alone). */
export interface OwnerReferenceView {
  readonly key: ObjectKey;
  readonly uid: string;
  readonly controller: boolean;
  readonly blockOwnerDeletion: boolean;
}

const BARE_REF = OwnerRef();

/** The ownerReferences of `o`, in order, each with its uid, controller and blockOwnerDeletion. */
export function ownerReferencesOf(o: KubeObject): OwnerReferenceView[] {
  return o.ownerReferences.toArray().map((key) => {
    const r = o.ownerRefs.get(key) ?? BARE_REF;
    return { key, uid: r.uid, controller: r.controller, blockOwnerDeletion: r.blockOwnerDeletion };
  });
}

/** metav1.GetControllerOf: the key of the reference marked `controller`, if any. */
export function controllerOf(o: KubeObject): ObjectKey | undefined {
  return o.ownerReferences.find((key) => o.ownerRefs.get(key)?.controller === true);
}

export const KubeObject = FlatRecord<KubeObjectProps>(
  {
    kind: '',
    name: '',
    namespace: '',
    generateName: '',
    uid: '',
    resourceVersion: 0,
    generation: 0,
    finalizers: List<string>(),
    deletionTimestamp: null,
    annotations: Map<string, string>(),
    labels: Map<string, string>(),
    ownerReferences: List<ObjectKey>(),
    ownerRefs: Map<ObjectKey, OwnerRef>(),
    spec: Map<string, FieldValue>(),
    conditions: Map<string, Condition>(),
    status: Map<string, FieldValue>(),
  },
  'KubeObject',
);

/** Builds an object from plain fields, for models and tests. */
export function kubeObject(fields: {
  kind: string;
  /** '' with a generateName: the API server makes the name on create. */
  name: string;
  namespace?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: number;
  generation?: number;
  finalizers?: readonly string[];
  deletionTimestamp?: number | null;
  annotations?: Readonly<globalThis.Record<string, string>>;
  labels?: Readonly<globalThis.Record<string, string>>;
  ownerReferences?: readonly OwnerReferenceInit[];
  spec?: Readonly<globalThis.Record<string, FieldValue>>;
  conditions?: Readonly<globalThis.Record<string, ConditionInit>>;
  status?: Readonly<globalThis.Record<string, FieldValue>>;
}): KubeObject {
  const refs = fields.ownerReferences ?? [];
  const keys = refs.map((r) => (typeof r === 'string' ? r : r.key));
  const rest = refs.flatMap((r) =>
    typeof r === 'string' || (!r.uid && !r.controller && !r.blockOwnerDeletion)
      ? []
      : [
          [
            r.key,
            OwnerRef({ uid: r.uid ?? '', controller: r.controller ?? false, blockOwnerDeletion: r.blockOwnerDeletion ?? false }),
          ] as const,
        ],
  );
  return KubeObject({
    kind: fields.kind,
    name: fields.name,
    namespace: fields.namespace ?? '',
    generateName: fields.generateName ?? '',
    uid: fields.uid ?? '',
    resourceVersion: fields.resourceVersion ?? 0,
    generation: fields.generation ?? 0,
    finalizers: List(fields.finalizers ?? []),
    deletionTimestamp: fields.deletionTimestamp ?? null,
    annotations: Map(fields.annotations ?? {}),
    labels: Map(fields.labels ?? {}),
    ownerReferences: List(keys),
    ownerRefs: Map(rest),
    spec: Map(fields.spec ?? {}),
    conditions: Map(Object.entries(fields.conditions ?? {}).map(([type, c]) => [type, condition(c)] as const)),
    status: Map(fields.status ?? {}),
  });
}

export function keyOf(o: KubeObject): ObjectKey {
  return objectKey(o.kind, o.name);
}

/** Whether `o` matches an equality-based label selector (labels.SelectorFromSet): every label given, with that value. */
export function matchesLabels(o: KubeObject, selector: Readonly<globalThis.Record<string, string>>): boolean {
  for (const k in selector) if (o.labels.get(k) !== selector[k]) return false;
  return true;
}

export function isDeleting(o: KubeObject): boolean {
  return o.deletionTimestamp !== null;
}

export function hasFinalizer(o: KubeObject | List<string>, finalizer: string): boolean {
  return finalizersOf(o).includes(finalizer);
}

/**
 * The finalizers of an object, or a list of them as it is: every finalizer helper takes either,
 * since a reconcile often keeps only the list of the copy it read (its later steps read nothing
 * else, and a smaller local makes fewer states).
 */
export function finalizersOf(o: KubeObject | List<string>): List<string> {
  return List.isList(o) ? (o as List<string>) : (o as KubeObject).finalizers;
}

/** controllerutil.AddFinalizer: appends the name unless present. */
export function withFinalizer(o: KubeObject | List<string>, finalizer: string): List<string> {
  const list = finalizersOf(o);
  return list.includes(finalizer) ? list : list.push(finalizer);
}

/** controllerutil.RemoveFinalizer: drops every occurrence of the name. */
export function withoutFinalizer(o: KubeObject | List<string>, finalizer: string): List<string> {
  return finalizersOf(o).filter((f) => f !== finalizer);
}

/** Whether `next` carries a finalizer name that `prev` does not. */
export function addsFinalizer(prev: KubeObject, next: List<string>): boolean {
  return next.some((f) => !prev.finalizers.includes(f));
}
