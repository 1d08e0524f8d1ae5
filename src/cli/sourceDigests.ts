// What a search was made from, file by file: the model file and the local modules it imports,
// and the checker's sources. A checkpoint records their digests (checkpointDir.ts), so that a
// resume with other code says which file changed; the type-check cache follows the same imports
// (typecheckCache.ts).
//
// TypeScript files are digested token by token, without comments, so that a comment or a
// reformatting changes no digest, while any change to code or to a string does.
import type ts from 'typescript';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shortDigest } from '../report/manifest.ts';
import { typescript } from './compiler.ts';

// (The compiler is loaded on first use, compiler.ts: the main thread of an ordinary run, which
// imports this module for checkpoints and docs, never needs it: issue 23.)

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The folder of the code running: src/ in a checkout, dist/ in an installed package (bin/layout.js). */
const OWN_CODE = fileURLToPath(new URL('..', import.meta.url));
const FROM_SOURCES = existsSync(join(OWN_CODE, 'index.ts'));

/**
 * modelcheck's own files of one sort: what runs (`code`) or what a model's type check reads
 * (`types`). Both are the TypeScript sources in a checkout; installed, the compiled JavaScript
 * or the declarations.
 */
export function ownFiles(sort: 'code' | 'types'): string[] {
  const suffix = FROM_SOURCES ? '.ts' : sort === 'code' ? '.js' : '.d.ts';
  const under = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      // (explore/page holds what the explorer sends to a browser, which never runs here.)
      .flatMap((e) =>
        e.isDirectory() ? (e.name === 'page' ? [] : under(join(dir, e.name))) : e.name.endsWith(suffix) ? [join(dir, e.name)] : [],
      )
      .sort();
  return under(OWN_CODE);
}

/**
 * A TypeScript file's code without its comments and layout, digested: the digest of its tokens,
 * read from the syntax tree (so that the text inside strings and templates is kept whole), with
 * JSDoc and the optional comma that ends a list left out.
 */
export function codeDigest(path: string, text: string): string {
  const ts = typescript();
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const h = createHash('sha256');
  const visit = (node: ts.Node) => {
    const children = node.getChildren(source);
    if (children.length === 0) {
      // The token's text alone: SyntaxKind numbers may change between compiler releases.
      if (node.kind !== ts.SyntaxKind.EndOfFileToken) h.update(`${node.getText(source)}\0`);
      return;
    }
    children.forEach((c, i) => {
      if (ts.isJSDoc(c)) return;
      const trailingComma = c.kind === ts.SyntaxKind.CommaToken && node.kind === ts.SyntaxKind.SyntaxList && i === children.length - 1;
      if (!trailingComma) visit(c);
    });
  };
  visit(source);
  return h.digest('hex').slice(0, 16);
}

export function fileDigest(path: string): string {
  const bytes = readFileSync(path);
  // (.mts and .cts are TypeScript too: a model in a folder without "type": "module" is one.)
  return /\.[cm]?ts$/.test(path) ? codeDigest(path, bytes.toString('utf8')) : shortDigest(bytes);
}

/** The file a relative import names, as tsx resolves it: as written, `.js` as `.ts`, or with `.ts` or `/index.ts` added. */
export function resolveImport(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.([cm]?)js$/, '.$1ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && !statSync(c).isDirectory()) ?? base;
}

/**
 * A module and every local module it imports, directly or not (package imports excluded). An
 * import that names no file is kept, so that its digest reads "missing" rather than vanishing.
 */
export function localModules(modelFile: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!existsSync(file)) return;
    const info = typescript().preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const f of info.importedFiles) if (f.fileName.startsWith('.')) visit(resolveImport(file, f.fileName));
  };
  visit(resolve(modelFile));
  return [...seen];
}

/** What decides a search's results, named so that they do not depend on where the checkout is. */
export interface SearchInputs {
  /** Each file that shapes the search's states (the model's modules, modelcheck's code), by path from the model's folder or as `modelcheck/<path>`, with its code digest (comments aside). */
  readonly files: Readonly<Record<string, string>>;
  /** Dependencies whose behaviour shapes states (immutable.js orders a Map's keys), with their versions. */
  readonly dependencies: Readonly<Record<string, string>>;
}

export function searchInputs(modelFile: string): SearchInputs {
  const model = resolve(modelFile);
  const files: Record<string, string> = {};
  const name = (f: string) => (f.startsWith(PACKAGE_ROOT) ? `modelcheck/${relative(PACKAGE_ROOT, f)}` : relative(resolve(model, '..'), f));
  for (const f of [...localModules(model), ...ownFiles('code')].sort()) {
    files[name(f).split('\\').join('/')] = existsSync(f) ? fileDigest(f) : 'missing';
  }
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return { files, dependencies: { immutable: pkg.dependencies?.immutable ?? 'absent' } };
}

/** One digest of searchInputs: equal in two checkouts of the same code wherever they are, whatever their comments. */
export function searchInputsDigest(modelFile: string): string {
  const { files, dependencies } = searchInputs(modelFile);
  return createHash('sha256')
    .update(JSON.stringify([files, dependencies]))
    .digest('hex')
    .slice(0, 32);
}

/**
 * How today's inputs differ from recorded ones: one phrase per input added, removed or changed.
 * `baseDir` is where the record is kept: model-side files are named from the working directory.
 */
export function inputDifferences(
  recorded: Readonly<Record<string, string>>,
  now: Readonly<Record<string, string>>,
  baseDir: string,
): string[] {
  const shown = (k: string) =>
    k.startsWith('modelcheck/') ? k : k.endsWith('@') ? k.slice(0, -1) : relative(process.cwd(), resolve(baseDir, k)).split('\\').join('/');
  const out: string[] = [];
  for (const [k, v] of Object.entries(now)) {
    if (!(k in recorded)) out.push(`${shown(k)} is new`);
    else if (recorded[k] !== v) out.push(k.endsWith('@') ? `${k.slice(0, -1)} is now ${v} (was ${recorded[k]})` : `${shown(k)} changed`);
  }
  for (const k of Object.keys(recorded)) if (!(k in now)) out.push(`${shown(k)} is no longer an input`);
  return out;
}
