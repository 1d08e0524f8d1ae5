// What tells a variant's initial states apart, for the explorer's picker: v1.9.3 of the move
// model has 81, and "init(55)" alone says nothing. Each state's view is read as fields (a
// subject's field, `source Cluster/c1 spec.paused`), and each initial state is described by the
// fields whose values are not the same in all of them.
import type { Json } from '../report/stateJson.ts';

export interface InitialState {
  /** As a path names it: `init`, `init(2)`. */
  readonly label: string;
  /** The fields that tell the initial states apart, with this one's values. */
  readonly differences: readonly { readonly field: string; readonly value: string }[];
}

export interface Initials {
  readonly initials: readonly InitialState[];
  /** The other fields in which they differ: each follows from the fields named (a cache's copy of what it caches, say). */
  readonly alsoDiffering: number;
}

/**
 * `views`: each initial state's view as JSON (stateToJson), in init()'s order; `labels` as
 * walk.ts's initLabel gives them. The fields named are chosen greedily, each the one that tells
 * the most states apart that the fields before it did not (the shorter values first at a tie),
 * until they tell apart every two states that differ at all: the move model's 81 are told apart
 * by four fields, not the forty its caches and watch events differ in.
 */
export function describeInitials(views: readonly Json[], labels: readonly string[]): Initials {
  const fields = views.map((v) => fieldsOf(v));
  const names = [...new Set(fields.flatMap((f) => [...f.keys()]))];
  const valueOf = (i: number, field: string) => fields[i].get(field) ?? ABSENT;
  const differing = names.filter((n) => new Set(fields.map((_, i) => valueOf(i, n))).size > 1);
  const classesBy = (chosen: readonly string[]) => new Set(fields.map((_, i) => JSON.stringify(chosen.map((n) => valueOf(i, n))))).size;
  const most = classesBy(differing);
  const chosen: string[] = [];
  let classes = 1;
  while (classes < most) {
    let best: { field: string; classes: number; length: number } | undefined;
    for (const field of differing) {
      if (chosen.includes(field)) continue;
      const c = classesBy([...chosen, field]);
      const length = fields.reduce((n, _, i) => n + valueOf(i, field).length, 0);
      if (best === undefined || c > best.classes || (c === best.classes && length < best.length)) best = { field, classes: c, length };
    }
    if (best === undefined || best.classes === classes) break;
    chosen.push(best.field);
    classes = best.classes;
  }
  // In the view's own order, not the order chosen.
  const named = differing.filter((n) => chosen.includes(n));
  return {
    initials: fields.map((_, i) => ({ label: labels[i], differences: named.map((field) => ({ field, value: valueOf(i, field) })) })),
    alsoDiffering: differing.length - named.length,
  };
}

const ABSENT = '(absent)';

/**
 * A value's leaves by their path, lists being leaves: a subject and its field joined by a space
 * (`source Cluster/c1 spec.paused`, as the page's panels show them), deeper keys by a dot.
 */
function fieldsOf(value: Json): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: Json, path: string, depth: number) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const entries = Object.entries(v);
      if (entries.length === 0 && depth > 0) out.set(path, '{}');
      for (const [k, x] of entries) visit(x, depth === 0 ? k : `${path}${depth === 1 ? ' ' : '.'}${k}`, depth + 1);
      return;
    }
    out.set(depth === 0 ? 'state' : path, typeof v === 'string' ? v : JSON.stringify(v));
  };
  visit(value, '', 0);
  return out;
}
