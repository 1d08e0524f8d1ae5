// Fresh names (generateName) and UIDs for a create, as values a search can hold.
//
// The real API server makes both at random (a UUID; five random letters after the prefix:
// docs/kubernetes-semantics.md, sections 1 and 2), so a new one differs from every one anything
// still remembers: an old incarnation's UID in a lagging cache, an ownerReference, a copy a
// reconcile holds. A search cannot draw at random, and a counter of creations would make a
// controller that deletes and creates again an unbounded state space. So the new one is the
// first of a fixed sequence that nothing in the state refers to: equal to no value anything
// holds, which is all a random one promises that code can observe (a UID or a name is only ever
// compared for equality), and the same whichever way the state was reached.
//
// "Anything in the state" is read whole: the Kubernetes world (servers, caches, watch events,
// queues, in-flight reconciles' locals) and the model's own fields beside it, by walking every
// value (viewOf). Only creates that use them pay for the walk.
import { viewOf } from '../engine/values/representations/table.ts';

/** The letters the real generator draws from (apimachinery util/rand: no vowels, no 0, 1 or 3). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The n-th suffix (n >= 0) in a fixed order: `b`, `c`, ..., `9`, `bb`, `bc`, ... */
export function suffix(n: number): string {
  let out = '';
  let i = n;
  do {
    out = ALPHABET[i % ALPHABET.length] + out;
    i = Math.floor(i / ALPHABET.length) - 1;
  } while (i >= 0);
  return out;
}

/** Every string held anywhere in `value` (keys of maps included), into `into`. */
export function stringsIn(value: unknown, into: Set<string>): Set<string> {
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      into.add(v);
      return;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    const view = viewOf(v);
    switch (view.kind) {
      case 'record':
        for (const [, x] of view.fields) walk(x);
        return;
      case 'map':
        for (const [k, x] of view.entries) {
          walk(k);
          walk(x);
        }
        return;
      case 'set':
      case 'list':
      case 'array':
        for (const x of view.items) walk(x);
        return;
      case 'object':
        for (const x of Object.values(view.value)) walk(x);
        return;
      case 'scalar':
        if (typeof view.value === 'string') into.add(view.value);
        return;
    }
  };
  walk(value);
  return into;
}

/** What a create needs from the state it is made in: names and UIDs nothing there holds. */
export interface Identities {
  /** A name `prefix` + a suffix such that no `kind/name` key and no such name is held anywhere. */
  name(kind: string, prefix: string): string;
  /** The UID for a new object under `key`, or '' where the environment gives none. */
  uid(key: string): string;
}

/** The identities fresh in `state` (read once, on the first call). `uids`: whether objects get UIDs. */
export function freshIn(state: unknown, uids: boolean): Identities {
  let held: Set<string> | undefined;
  const heldStrings = () => {
    held ??= stringsIn(state, new Set());
    return held;
  };
  return {
    name(kind, prefix) {
      const strings = heldStrings();
      for (let n = 0; ; n++) {
        const name = prefix + suffix(n);
        if (!strings.has(`${kind}/${name}`) && !strings.has(name)) return name;
      }
    },
    uid(key) {
      if (!uids) return '';
      const strings = heldStrings();
      for (let n = 1; ; n++) {
        const uid = `${key}#${n}`;
        if (!strings.has(uid)) return uid;
      }
    },
  };
}

/** Identities outside any state (a request made by hand, a test): the first name, the first UID or none. */
export function firstIdentities(uids: boolean): Identities {
  return { name: (_kind, prefix) => prefix + suffix(0), uid: (key) => (uids ? `${key}#1` : '') };
}
