// RFC 6902 JSON Patch, as the API server applies an application/json-patch+json PATCH to the
// stored object (the same rules as evanphx/json-patch, which it uses): add, remove, replace,
// move, copy and test, with RFC 6901 pointers; `-` appends to an array.
import { canonical, isObject, type Json } from './auditObjects.ts';

export class JsonPatchError extends Error {}

/** `target` with `ops` applied, a new value (target is not changed); JsonPatchError for an op that fails. */
export function applyJsonPatch(target: Json, ops: readonly Json[]): Json {
  let doc: Json = structuredClone(target);
  for (const op of ops) {
    if (!isObject(op) || typeof op.op !== 'string' || typeof op.path !== 'string')
      throw new JsonPatchError(`not an operation: ${canonical(op)}`);
    const path = pointer(op.path);
    switch (op.op) {
      case 'add':
        doc = put(doc, path, structuredClone(op.value ?? null), 'add');
        break;
      case 'remove':
        doc = remove(doc, path);
        break;
      case 'replace':
        doc = put(doc, path, structuredClone(op.value ?? null), 'replace');
        break;
      case 'move': {
        const from = pointer(String(op.from));
        const value = at(doc, from);
        doc = put(remove(doc, from), path, value, 'add');
        break;
      }
      case 'copy':
        doc = put(doc, path, structuredClone(at(doc, pointer(String(op.from)))), 'add');
        break;
      case 'test':
        if (canonical(at(doc, path)) !== canonical(op.value ?? null)) throw new JsonPatchError(`test failed at ${op.path}`);
        break;
      default:
        throw new JsonPatchError(`unknown op ${op.op}`);
    }
  }
  return doc;
}

function pointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new JsonPatchError(`not a JSON pointer: ${p}`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function at(doc: Json, path: readonly string[]): Json {
  let v: Json = doc;
  for (const k of path) {
    if (Array.isArray(v)) v = v[index(v, k, false)];
    else if (isObject(v) && Object.hasOwn(v, k)) v = v[k];
    else throw new JsonPatchError(`no value at /${path.join('/')}`);
  }
  return v;
}

function index(a: readonly Json[], k: string, adding: boolean): number {
  if (adding && k === '-') return a.length;
  const i = Number(k);
  if (!/^(0|[1-9][0-9]*)$/.test(k) || i > a.length || (!adding && i === a.length)) throw new JsonPatchError(`no index ${k}`);
  return i;
}

function put(doc: Json, path: readonly string[], value: Json, how: 'add' | 'replace'): Json {
  if (path.length === 0) return value;
  const parent = at(doc, path.slice(0, -1));
  const k = path[path.length - 1];
  if (Array.isArray(parent)) {
    const i = index(parent, k, how === 'add');
    if (how === 'add') parent.splice(i, 0, value);
    else parent[i] = value;
  } else if (isObject(parent)) {
    if (how === 'replace' && !Object.hasOwn(parent, k)) throw new JsonPatchError(`nothing to replace at /${path.join('/')}`);
    // (defineProperty: a key such as __proto__ is a member like any other.)
    Object.defineProperty(parent, k, { value, enumerable: true, writable: true, configurable: true });
  } else throw new JsonPatchError(`no container at /${path.slice(0, -1).join('/')}`);
  return doc;
}

function remove(doc: Json, path: readonly string[]): Json {
  if (path.length === 0) throw new JsonPatchError('cannot remove the whole document');
  const parent = at(doc, path.slice(0, -1));
  const k = path[path.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, k, false), 1);
  else if (isObject(parent) && Object.hasOwn(parent, k)) delete parent[k];
  else throw new JsonPatchError(`nothing to remove at /${path.join('/')}`);
  return doc;
}
