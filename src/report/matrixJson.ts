// A variant matrix in the --json document: kept apart from json.ts, which the generated docs use,
// because it reads the text report's matrix rows.
import type { Json } from './json.ts';
import { matrixProperties, type MatrixLine } from './text.ts';

/**
 * The variant matrix in JSON: its dimensions, and per row the values, the variant, its verdict
 * and every property's status (from that row's result).
 */
export function matrixJson(
  matrix: { readonly name: string; readonly description?: string; readonly dimensions: readonly string[] },
  lines: readonly MatrixLine[],
): Json {
  return {
    name: matrix.name,
    description: matrix.description ?? null,
    dimensions: [...matrix.dimensions],
    properties: matrixProperties(lines),
    rows: lines.map((l) => ({
      variant: l.summary.variant,
      values: [...l.values],
      verdict: l.summary.verdict,
      distinctStates: l.summary.distinctStates,
      properties: Object.fromEntries(l.summary.properties.map((p) => [p.name, p.vacuous ? 'vacuous' : p.status])),
    })),
  };
}
