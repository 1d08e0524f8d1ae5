// A model's requests as an audit log shows them, and the test of whether a recorded request is
// a model's. The library's requests (RequestDetail: what a step sent and the answer) are written
// as audit.k8s.io Events (`auditEventOf`: a model's trace as the log a real API server would have
// written at RequestResponse level, for tests and for replaying a counterexample elsewhere); a
// recorded Event is the model's request (`isRequestOf`) when its verb, object, status code and
// the fields of its body that the model has all agree: the model holds a few fields of each
// object, a real client sends many more, so a recorded body may hold more than the model's,
// never other values for the model's fields.
import type { StepEvent } from '../../engine/model.ts';
import type { ApiResponse, MergePatch } from '../apiServer.ts';
import type { RequestDetail } from '../kubernetes.ts';
import { type KubeObject, ownerReferencesOf } from '../object.ts';
import type { AuditEvent } from './auditLog.ts';
import { canonical, isObject, type Json, type JsonObject, metadataOf } from './auditObjects.ts';

/** The API group the written logs put every kind in (the model has kinds, not groups). */
export const MODEL_GROUP = 'model.modelcheck.dev';
/** The namespace the written logs put every object in (the model has one). */
export const MODEL_NAMESPACE = 'default';

const VERBS = { CREATE: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get' } as const;

/** The resource of a kind, as the written logs name it: lower case, plural. */
export function resourceOfKind(kind: string): string {
  const k = kind.toLowerCase();
  // (controller-gen's and kubectl's rule: Endpoints stays, -s -x -ch -sh add es, a consonant and y is ies, a vowel and y adds s.)
  if (k === 'endpoints') return k;
  if (/(s|x|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/** The request of a step's event, if the event is a request of the Kubernetes library's. */
export function detailOf(e: StepEvent): RequestDetail | undefined {
  if (e.kind !== 'request' || !isObject(e.detail as Json)) return undefined;
  const d = e.detail as RequestDetail;
  return typeof d.server === 'string' && d.request !== undefined && d.response !== undefined ? d : undefined;
}

/** An object as the API server serializes it (the fields the library holds). */
export function objectJson(o: KubeObject): JsonObject {
  const refs = ownerReferencesOf(o);
  const metadata: JsonObject = {
    name: o.name,
    namespace: MODEL_NAMESPACE,
    ...(o.generateName !== '' ? { generateName: o.generateName } : {}),
    ...(o.uid !== '' ? { uid: o.uid } : {}),
    ...(o.resourceVersion > 0 ? { resourceVersion: String(o.resourceVersion) } : {}),
    ...(o.generation > 0 ? { generation: o.generation } : {}),
    ...(o.finalizers.size > 0 ? { finalizers: o.finalizers.toArray() } : {}),
    ...(o.deletionTimestamp !== null
      ? { deletionTimestamp: `1970-01-01T00:00:${String(o.deletionTimestamp % 60).padStart(2, '0')}Z` }
      : {}),
    ...(o.labels.size > 0 ? { labels: o.labels.toObject() } : {}),
    ...(o.annotations.size > 0 ? { annotations: o.annotations.toObject() } : {}),
    ...(refs.length > 0
      ? {
          ownerReferences: refs.map((r) => ({
            apiVersion: `${MODEL_GROUP}/v1`,
            kind: r.key.split('/')[0],
            name: r.key.slice(r.key.indexOf('/') + 1),
            ...(r.uid !== '' ? { uid: r.uid } : {}),
            ...(r.controller ? { controller: true } : {}),
            ...(r.blockOwnerDeletion ? { blockOwnerDeletion: true } : {}),
          })),
        }
      : {}),
  };
  const status: JsonObject = { ...(o.status.toObject() as JsonObject) };
  if (o.conditions.size > 0) status.conditions = conditionsJson(o.conditions.map((c) => c.toObject()).toObject());
  return {
    apiVersion: `${MODEL_GROUP}/v1`,
    kind: o.kind,
    metadata,
    spec: o.spec.toObject() as JsonObject,
    ...(Object.keys(status).length > 0 ? { status } : {}),
  };
}

function conditionsJson(byType: Record<string, unknown>): Json[] {
  return Object.entries(byType).map(([type, c]) => {
    const x =
      typeof c === 'boolean' ? { status: c } : (c as { status?: boolean; reason?: string; message?: string; observedGeneration?: number });
    return {
      type,
      status: x.status ? 'True' : 'False',
      ...(x.reason ? { reason: x.reason } : {}),
      ...(x.message ? { message: x.message } : {}),
      ...(x.observedGeneration ? { observedGeneration: x.observedGeneration } : {}),
    };
  });
}

/** A merge patch as the JSON a client sends (controller-runtime's client.MergeFrom). */
function mergePatchJson(p: MergePatch, resourceVersion: number | undefined): JsonObject {
  const metadata: JsonObject = {
    ...(p.finalizers !== undefined ? { finalizers: [...p.finalizers] } : {}),
    ...(p.labels !== undefined ? { labels: { ...p.labels } } : {}),
    ...(p.annotations !== undefined ? { annotations: { ...p.annotations } } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion: String(resourceVersion) } : {}),
  };
  const status: JsonObject = { ...((p.status ?? {}) as JsonObject) };
  if (p.conditions !== undefined) status.conditions = conditionsJson(p.conditions);
  return {
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(p.spec !== undefined ? { spec: { ...p.spec } } : {}),
    ...(Object.keys(status).length > 0 ? { status } : {}),
  };
}

/** Whether a merge patch writes only status (a status subresource patch in the real API). */
function statusOnly(p: MergePatch): boolean {
  return (
    (p.conditions !== undefined || p.status !== undefined) &&
    p.finalizers === undefined &&
    p.labels === undefined &&
    p.annotations === undefined &&
    p.spec === undefined
  );
}

/** The request's body as a client sends it, and the subresource it goes to. */
function requestBody(d: RequestDetail): { body?: Json; subresource?: string } {
  const r = d.request;
  if (r.verb === 'GET') return {};
  if (r.verb === 'DELETE') {
    const pre = r.preconditions;
    return {
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        ...(pre?.uid !== undefined || pre?.resourceVersion !== undefined
          ? {
              preconditions: {
                ...(pre.uid !== undefined ? { uid: pre.uid } : {}),
                ...(pre.resourceVersion !== undefined ? { resourceVersion: String(pre.resourceVersion) } : {}),
              },
            }
          : {}),
        ...(pre?.propagationPolicy !== undefined ? { propagationPolicy: pre.propagationPolicy } : {}),
      },
    };
  }
  const body = r.body;
  if (body === undefined) return {};
  if ('jsonPatchAnnotations' in body)
    return { body: [{ op: 'add', path: '/metadata/annotations', value: { ...body.jsonPatchAnnotations } }] };
  if (r.verb === 'PATCH') {
    const p = body as MergePatch;
    return { body: mergePatchJson(p, r.resourceVersion), ...(statusOnly(p) ? { subresource: 'status' } : {}) };
  }
  return { body: objectJson(body as KubeObject) };
}

/** `d` as the Event a real API server's audit log holds for it (RequestResponse level), number `n`. */
export function auditEventOf(d: RequestDetail, n: number, user: string): AuditEvent & { kind: 'Event'; apiVersion: string } {
  const kind = d.request.key.split('/')[0];
  const name = d.request.key.slice(kind.length + 1);
  const resource = resourceOfKind(kind);
  const { body, subresource } = requestBody(d);
  const verb = VERBS[d.request.verb];
  const path = `/apis/${MODEL_GROUP}/v1/namespaces/${MODEL_NAMESPACE}/${resource}`;
  const creating = verb === 'create';
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: `model-${n}`,
    stage: 'ResponseComplete',
    requestURI: creating ? path : `${path}/${name}${subresource ? `/${subresource}` : ''}`,
    verb,
    user: { username: user },
    objectRef: {
      resource,
      namespace: MODEL_NAMESPACE,
      name,
      apiGroup: MODEL_GROUP,
      apiVersion: 'v1',
      ...(subresource ? { subresource } : {}),
    },
    responseStatus: { code: d.response.code, ...('reason' in d.response ? { message: d.response.reason } : {}) },
    ...(body !== undefined ? { requestObject: body } : {}),
    responseObject: responseJson(d.response, kind),
  };
}

function responseJson(r: ApiResponse, kind: string): Json {
  if (!('object' in r)) return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: r.reason, code: r.code };
  if (r.removed && r.object.finalizers.size === 0 && r.object.deletionTimestamp === null) {
    return { kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: r.object.name, kind } };
  }
  return objectJson(r.object);
}

/**
 * Whether the recorded `o` is the model's request `d`: the same verb, object (kind and name; a
 * generated name by its prefix), status code, and, where the log holds the request body, the same
 * values for every field of the body the model has (see the top of this file).
 */
export function isRequestOf(d: RequestDetail, o: AuditEvent, kindOf: (o: AuditEvent) => string | undefined): boolean {
  const r = d.request;
  if (VERBS[r.verb] !== o.verb) return false;
  if ((o.responseStatus?.code ?? 0) !== d.response.code) return false;
  const kind = r.key.split('/')[0];
  if (kindOf(o) !== kind) return false;
  const name = r.key.slice(kind.length + 1);
  const recordedName =
    o.objectRef?.name ??
    (typeof metadataOf(o.responseObject).name === 'string' ? (metadataOf(o.responseObject).name as string) : undefined);
  const generated =
    r.verb === 'CREATE' &&
    'body' in r &&
    r.body !== undefined &&
    !('jsonPatchAnnotations' in r.body) &&
    (r.body as KubeObject).generateName;
  if (recordedName !== name && !(typeof generated === 'string' && generated !== '' && recordedName?.startsWith(generated))) return false;
  const { body, subresource } = requestBody(d);
  if ((o.objectRef?.subresource ?? undefined) !== subresource) return false;
  if (o.requestObject === undefined || body === undefined) return true;
  return within(comparable(body), o.requestObject as Json, [], r.verb === 'PATCH');
}

/**
 * The model's body without what the written logs make up and a real client sends otherwise:
 * the API group and version, the namespace, the owner references' API versions, the generation
 * (the model's count, not the real one) and an empty name (a create by generateName).
 */
function comparable(body: Json): Json {
  if (!isObject(body)) return body;
  const { apiVersion: _v, ...rest } = body;
  if (!isObject(rest.metadata)) return rest;
  const { namespace: _n, generation: _g, ...metadata } = rest.metadata;
  if (metadata.name === '') delete metadata.name;
  if (Array.isArray(metadata.ownerReferences)) {
    metadata.ownerReferences = metadata.ownerReferences.map((r) => {
      if (!isObject(r)) return r;
      const { apiVersion: _a, ...ref } = r;
      return ref;
    });
  }
  return { ...rest, metadata };
}

/**
 * Whether every field of `model` is in `recorded` with the same value: lists whole, conditions
 * by type; the resourceVersion, uid and deletionTimestamp of metadata and of preconditions
 * present with any value (the model's are its own counts). In a patch (`patch`) a field left out
 * is left unchanged, so it matches nothing the model sets, and null (removal) only null; in an
 * object sent whole, a list left out or null is empty.
 */
function within(model: Json, recorded: Json | undefined, path: readonly string[], patch: boolean): boolean {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (
    (parent === 'metadata' || parent === 'preconditions') &&
    (last === 'resourceVersion' || last === 'uid' || last === 'deletionTimestamp')
  ) {
    return recorded !== undefined && recorded !== null;
  }
  if (last === 'conditions' && Array.isArray(model)) {
    // By type: the recorded list may hold conditions the model does not write.
    const byType = new Map((Array.isArray(recorded) ? recorded : []).filter(isObject).map((c) => [c.type, c] as const));
    return model.every((c) => isObject(c) && within(c, byType.get(c.type as string), [...path, String(c.type)], patch));
  }
  if (isObject(model)) {
    if (!isObject(recorded)) return false;
    return Object.entries(model).every(([k, v]) => within(v, recorded[k], [...path, k], patch));
  }
  if (Array.isArray(model)) {
    // A list written whole (finalizers); an empty one is also sent as null (controller-runtime's MergeFrom).
    const list = recorded === null || (recorded === undefined && !patch) ? [] : recorded;
    return Array.isArray(list) && list.length === model.length && model.every((v, i) => within(v, list[i], [...path, String(i)], patch));
  }
  if (model === null) return patch ? recorded === null : recorded === null || recorded === undefined;
  return recorded !== undefined && canonical(model) === canonical(recorded);
}
