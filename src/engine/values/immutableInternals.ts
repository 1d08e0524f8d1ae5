// Every place modelcheck reads immutable.js's private fields, in one module, for one version of
// immutable.js, checked when the engine loads (IMMUTABLE_VERSION; package.json pins it exactly).
// A user who installs another version gets a clear error at start-up that says what to do, not a
// fingerprint that quietly differs or a FlatRecord that breaks in the middle of a search.
//
// What is read, and by whom:
// - a Record type's prototype fields `_keys`, `_defaultValues`, `_indices`, `_name`, and an
//   instance's `__ownerID` while it is a withMutations draft: FlatRecord (flatRecord.ts) sets
//   them as immutable.js's Record does, so that immutable.js's own Record methods (getIn,
//   merge, withMutations, toJS, ...) work on it (RecordInternals);
// - a Map's `_root` node and a Set's `_map`: the entries of a small Map (or the members of a
//   small Set) straight from the array immutable.js keeps them in, for the encoder's sorted form
//   of small collections (representations/immutableJs.ts, for encoding.ts small) and the Kubernetes library's search for a
//   pending object of a kind (world.ts). Walking them with forEach costs three closures and a
//   call per entry (Map.__iterate, the node's iterate, the callback): on bench case 6 that was
//   about a tenth of fingerprinting's time. They are taken only where they show themselves
//   exactly as expected, a root holding every entry in one array (ArrayMapNode or
//   HashCollisionNode, `entries`) or the single entry (ValueNode, `entry`); otherwise the answer
//   is undefined and the caller iterates the public way. The entries come in immutable.js's own
//   iteration order (its nodes iterate their arrays from the start), which the encoder does not
//   need (it sorts them) and world.ts keeps. test/engine/immutableInternals.test.ts holds them
//   to forEach, order included, over Maps and Sets built every way immutable.js builds them.
import { createRequire } from 'node:module';

/** The immutable.js version whose internals this module reads (package.json pins it). */
export const IMMUTABLE_VERSION = '5.2.0';

/** What is wrong with the installed immutable.js, or undefined when it is the supported one. */
export function immutableVersionProblem(installed: string | undefined, where: string): string | undefined {
  if (installed === IMMUTABLE_VERSION) return undefined;
  return (
    `modelcheck needs immutable.js ${IMMUTABLE_VERSION} exactly (it reads its Records', Maps' and Sets' internals), ` +
    `but ${installed === undefined ? 'no version could be read' : `version ${installed} is installed`} at ${where}. ` +
    `Install the supported one: npm install immutable@${IMMUTABLE_VERSION}`
  );
}

/** The installed immutable.js is not the supported version: said once, at start-up, with what to do. */
export class UnsupportedImmutable extends Error {
  override readonly name = 'UnsupportedImmutable';
}

/** Throws, at the engine's load, if the immutable.js that modelcheck resolves is not the supported version. */
function checkInstalledImmutable(): void {
  const require = createRequire(import.meta.url);
  let where = 'immutable';
  let installed: string | undefined;
  try {
    where = require.resolve('immutable/package.json');
    installed = (require(where) as { version?: string }).version;
  } catch {
    // An immutable.js whose package.json cannot be read: said as "no version could be read".
  }
  const problem = immutableVersionProblem(installed, where);
  if (problem !== undefined) throw new UnsupportedImmutable(problem);
}
checkInstalledImmutable();

/** The private fields of an immutable.js Record that FlatRecord sets and reads as immutable.js does. */
export interface RecordInternals {
  readonly _keys: readonly string[];
  readonly _defaultValues: { readonly [field: string]: unknown };
  readonly _indices?: { readonly [field: string]: number };
  readonly _name?: string;
  /** Set while the instance is a withMutations draft (immutable.js's owner). */
  __ownerID: unknown;
}

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
