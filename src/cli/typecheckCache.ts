// The type check's answer, kept by the digest of everything it read, so that a run whose model
// files have not changed since the last check does not pay for the compiler again (about 2.5 s
// of a two-core machine even for a 40-line model: issue 23). Loading no compiler is the point,
// so the digest is taken without one: the model's local modules are found by reading their
// import lines, and everything else the check can see (modelcheck's own sources, the tsconfig,
// the package files that pin the dependencies' typings, the compiler's version) is digested
// whole. A miss costs only the digest; any error reading or writing the cache is a miss.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { cacheDir } from './cacheDir.ts';
import { writeWhole } from './wholeFile.ts';
import { folderAndAbove } from './folders.ts';
import type { TypeDiagnostic } from './typeDiagnostic.ts';
// (sourceDigests.ts loads the compiler only when its token digests are asked for.)
import { ownFiles, PACKAGE_ROOT, resolveImport } from './sourceDigests.ts';

/** Bump when what is stored, or how the key is made, changes. */
const FORMAT = 1;

// Relative module specifiers in import and export statements, dynamic imports and requires,
// read without the compiler (sourceDigests.localModules asks it). Over-inclusive on purpose (a
// match in a comment only adds a file to the digest).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The model's module and every local module it imports, directly or not. */
export function localGraph(model: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!existsSync(file)) return;
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) visit(resolveImport(file, m[1]));
  };
  visit(model);
  return [...seen].sort();
}

/** The nearest file of one of `names` at or above `dir`. */
function nearest(dir: string, names: readonly string[]): string[] {
  for (const d of folderAndAbove(dir)) {
    const found = names.map((n) => join(d, n)).filter((f) => existsSync(f));
    if (found.length > 0) return found;
  }
  return [];
}

function compilerVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('typescript/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The digest of everything the type check of `model` reads, as far as it can change between runs. */
export function typecheckKey(model: string): string {
  const file = resolve(model);
  const h = createHash('sha256');
  h.update(`format ${FORMAT}\0typescript ${compilerVersion()}\0`);
  const inputs = [
    ...localGraph(file),
    ...ownFiles('types'),
    ...nearest(dirname(file), ['tsconfig.json']),
    ...nearest(dirname(file), ['package.json', 'package-lock.json']),
    ...['package.json', 'package-lock.json'].map((n) => join(PACKAGE_ROOT, n)),
  ];
  for (const f of [...new Set(inputs)]) {
    h.update(`${f}\0`);
    h.update(existsSync(f) ? readFileSync(f) : 'missing');
    h.update('\0');
  }
  return h.digest('hex').slice(0, 32);
}

interface Stored {
  readonly format: number;
  /** Each diagnostic with its file as an absolute path (shown relative to the working directory). */
  readonly errors: readonly TypeDiagnostic[];
}

/** The type errors found the last time these very inputs were checked, or undefined. */
export function cachedTypecheck(key: string): TypeDiagnostic[] | undefined {
  try {
    const stored = JSON.parse(readFileSync(join(cacheDir(), `typecheck-${key}.json`), 'utf8')) as Stored;
    if (stored.format !== FORMAT || !Array.isArray(stored.errors)) return undefined;
    return stored.errors.map((d) => ({ ...d, file: relative(process.cwd(), d.file) }));
  } catch {
    return undefined;
  }
}

/** Keeps the answer for `key`; written whole or not at all. */
export function storeTypecheck(key: string, errors: readonly TypeDiagnostic[]): void {
  try {
    const stored: Stored = { format: FORMAT, errors: errors.map((d) => ({ ...d, file: resolve(d.file) })) };
    writeWhole(join(cacheDir(), `typecheck-${key}.json`), JSON.stringify(stored));
  } catch {
    // A cache that cannot be written is only a slower next run.
  }
}
