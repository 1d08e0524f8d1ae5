// The entries of a small immutable.js Map (or the members of a small Set) read straight from
// the array immutable.js keeps them in, for the encoder's sorted form of small collections
// (encoding.ts writeSmall). Walking them with forEach costs three closures and a call per
// entry (Map.__iterate, the node's iterate, the callback): on bench case 6 immutable.js's
// iteration was about a tenth of fingerprinting's time, most of it for these small Maps.
//
// This reads immutable.js's internals (5.x: a Map's `_root` node, a Set's `_map`), so it takes
// them only where they show themselves exactly as expected, a root holding every entry in one
// array (ArrayMapNode or HashCollisionNode, `entries`) or the single entry (ValueNode, `entry`),
// and otherwise answers undefined: the caller then iterates the public way. The entries come
// in immutable.js's own iteration order (its nodes iterate their arrays from the start), which
// the encoder does not need (it sorts them) and the Kubernetes library's search for a pending
// object of a kind keeps (world.ts). test/engine/smallEntries.test.ts holds it to forEach, order
// included, over Maps and Sets built every way immutable.js builds them.

type Entry = readonly [unknown, unknown];
interface MapInternals {
  readonly size: number;
  readonly _root?: { readonly entries?: unknown; readonly entry?: unknown } | null;
}

const NONE: readonly Entry[] = [];
/** Scratch for a root holding one entry (ValueNode): one array, reused. */
const one: Entry[] = [];

/**
 * The [key, value] pairs of `map` (an immutable.js Map, not ordered), all of them, as one
 * array valid until the next call; undefined where immutable.js does not hold them so.
 */
export function mapEntries(map: object): readonly Entry[] | undefined {
  const m = map as MapInternals;
  const size = m.size;
  const root = m._root;
  // (The empty Map has no root.)
  if (root === undefined || root === null) return size === 0 ? NONE : undefined;
  const entries = root.entries;
  if (entries !== undefined) return Array.isArray(entries) && entries.length === size ? (entries as Entry[]) : undefined;
  const entry = root.entry;
  if (size === 1 && Array.isArray(entry) && entry.length === 2) {
    one[0] = entry as unknown as Entry;
    one.length = 1;
    return one;
  }
  return undefined;
}

/** The members of `set` (an immutable.js Set, not ordered) as the keys of [member, member] pairs, as mapEntries. */
export function setEntries(set: object): readonly Entry[] | undefined {
  const inner = (set as { readonly _map?: unknown })._map;
  if (typeof inner !== 'object' || inner === null || (inner as MapInternals).size !== (set as MapInternals).size) return undefined;
  return mapEntries(inner);
}
