// A memo of what writes did to stored objects. What a write of an existing object does (refused,
// no change, stored as a new version, removed) depends only on the version stored and the
// request's body (apiServer.ts), and a search sends the same request to the same version again
// and again: the mover's DELETE of a Cluster, or a controller's status patch, from every
// interleaving of the other actors' steps that leaves that object as it was. Kept, the write is
// looked up rather than worked out, and its new version is the same object each time, so the
// caches' views of it (kept per object) and its digest (kept on it once a state holding it is
// new) are found rather than made again.
import { contentKey } from './contentKey.ts';
import type { KubeObject } from './object.ts';

/** How a write left an existing object; with the request, the server and the stored version, the whole answer (apiServer.ts `answer`). */
export type Outcome =
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'stored'; readonly object: KubeObject }
  | { readonly kind: 'removed'; readonly gone: KubeObject };

/** How many stored versions the memo keeps writes for before it starts again (it holds them alive). */
const LIMIT = 1 << 16;
const byStored = new globalThis.Map<KubeObject, globalThis.Map<string, Outcome>>();

/**
 * The memo's key of a request: its kind (one letter) and its body's content (contentKey.ts),
 * or undefined for a body no state could hold (then the write is worked out every time).
 */
export function requestKey(kind: string, body: unknown): string | undefined {
  const key = contentKey(body);
  return key === undefined ? undefined : kind + key;
}

/** What the request `key` did to the version `stored`, if kept. */
export function recall(stored: KubeObject, key: string): Outcome | undefined {
  return byStored.get(stored)?.get(key);
}

export function remember(stored: KubeObject, key: string, outcome: Outcome): Outcome {
  let writes = byStored.get(stored);
  if (writes === undefined) {
    if (byStored.size >= LIMIT) byStored.clear();
    writes = new globalThis.Map();
    byStored.set(stored, writes);
  }
  writes.set(key, outcome);
  return outcome;
}
