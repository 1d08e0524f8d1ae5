// Compares a variant's run (the CLI's --json object) with the results its model's generated
// docs page records (docs/<model>.manifest.json): an engine change that changes any count,
// verdict, warning or trace fails here, naming what changed, even though it leaves the page's
// inputs as they were (docs/architecture.md, "Generated documentation").
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { pageFiles } from '../../src/report/docs.ts';
import { manifestDifferences, variantManifest, type DocsManifest } from '../../src/report/manifest.ts';

/**
 * The record of a model's docs, or undefined for a model without generated docs. A model whose
 * page exists but whose record does not is an error, not a model without docs.
 */
export function docsRecordOf(model: string): { path: string; manifest: DocsManifest } | undefined {
  const { main: page, manifest: path } = pageFiles(model);
  if (!existsSync(path)) {
    if (existsSync(page)) throw new Error(`${page} has no record beside it (${path}); regenerate: npx modelcheck docs ${model}`);
    return undefined;
  }
  return { path, manifest: JSON.parse(readFileSync(path, 'utf8')) as DocsManifest };
}

/** Asserts that a --json variant of `model`'s run has the results its docs page records. */
export function expectAsRecorded(model: string, variant: { name: string }): void {
  const record = docsRecordOf(model);
  if (record === undefined) throw new Error(`${model} has no generated docs record`);
  const differences = manifestDifferences(variant.name, record.manifest.variants[variant.name], variantManifest(variant as never));
  expect(differences, `the run differs from ${record.path}; if the change is meant, regenerate: npx modelcheck docs ${model}`).toEqual([]);
}
