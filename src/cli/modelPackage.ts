// Why a model kept outside a package that depends on modelcheck fails to load, in words a user
// can act on. Two causes were met by new users (issue 47): the model's folder is not an ES module
// package (no package.json saying "type": "module", so the TypeScript loader compiles the model
// as CommonJS and Node refuses the import cycle that makes), and the packages the model imports
// (modelcheck, immutable) cannot be resolved from its folder. Asked only after a load has failed,
// so that a setup that works (a tsconfig path, a workspace) is never second-guessed.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { folderAndAbove } from './folders.ts';
import { PACKAGE_ROOT } from './sourceDigests.ts';

/** This modelcheck's own folder (the package root), without a trailing separator: for commands a user types. */
export const OWN_ROOT = resolve(PACKAGE_ROOT);

export interface LoadDiagnosis {
  readonly message: string;
  readonly hint: string;
}

/** The bare package names `source` imports (`from 'x'`, `import 'x'`, `import('x')`), in order, once each. */
export function bareImports(source: string): string[] {
  const names: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'".][^'"]*)['"]/g;
  for (const m of source.matchAll(pattern)) {
    const spec = m[1];
    // Node's own modules ('node:fs', 'path') and the package's own import map ('#x') are no packages to install.
    if (spec.startsWith('node:') || spec.startsWith('/') || spec.startsWith('#') || isBuiltin(spec)) continue;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The nearest package.json at or above `dir`, if any. */
function nearestPackageJson(dir: string): string | undefined {
  return folderAndAbove(dir)
    .map((d) => join(d, 'package.json'))
    .find((p) => existsSync(p));
}

interface OwnPackage {
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

function ownPackage(): OwnPackage {
  return JSON.parse(readFileSync(join(OWN_ROOT, 'package.json'), 'utf8')) as OwnPackage;
}

/**
 * The version of `name` a model's project should install beside this modelcheck: its own version
 * for `modelcheck`, else the version its package.json pins (immutable as a dependency, vitest as
 * the test runner it is tested with; an installed package keeps its package.json whole).
 */
export function pinnedVersion(name: string): string | undefined {
  try {
    const own = ownPackage();
    return name === 'modelcheck' ? own.version : (own.dependencies?.[name] ?? own.devDependencies?.[name]);
  } catch {
    return undefined;
  }
}

/** Whether this modelcheck was installed by npm (under node_modules), rather than run from a checkout. */
export const INSTALLED = OWN_ROOT.split(sep).includes('node_modules');

/**
 * Where npm installed this modelcheck from, when that was a file (a packed tarball, a folder)
 * rather than a registry: the project's lockfile says (npm's hidden one in node_modules first).
 */
function installedFromFile(): string | undefined {
  const project = dirname(dirname(OWN_ROOT));
  for (const lock of [join(project, 'node_modules', '.package-lock.json'), join(project, 'package-lock.json')]) {
    try {
      const packages = (JSON.parse(readFileSync(lock, 'utf8')) as { packages?: Record<string, { resolved?: string }> }).packages;
      const resolved = packages?.['node_modules/modelcheck']?.resolved;
      if (resolved?.startsWith('file:')) return resolve(project, resolved.slice('file:'.length));
      if (resolved !== undefined) return undefined;
    } catch {
      // No such lockfile, or not one npm wrote: the next, else the registry.
    }
  }
  return undefined;
}

/**
 * What `npm install` takes to get package `name` as this modelcheck has it: for modelcheck itself,
 * a checkout by its folder (npm links it, offline), one installed from a tarball by that tarball,
 * else by its version.
 */
export function installSpec(name: string): string {
  if (name === 'modelcheck') {
    const file = INSTALLED ? installedFromFile() : OWN_ROOT;
    if (file !== undefined) return file;
  }
  const version = pinnedVersion(name);
  return version === undefined ? name : `${name}@${name === 'modelcheck' ? '^' : ''}${version}`;
}

/**
 * Whether package `name` is there for a module in `dir`, as Node looks for it: in a node_modules
 * at or above `dir`, or as the package `dir` is in (a package imports itself by its name). Read
 * from the file system, not by resolving it: what a package's exports point at may not be
 * built (a checkout's dist/), which is no reason to say it is not installed.
 */
function installedFor(dir: string, name: string): boolean {
  const namesItself = (d: string) => {
    try {
      return (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name?: string }).name === name;
    } catch {
      return false; // No package.json here, or not one that names itself.
    }
  };
  return folderAndAbove(dir).some((d) => existsSync(join(d, 'node_modules', name, 'package.json')) || namesItself(d));
}

/** What keeps the model at `path` (a .ts file) from loading, if it is one of the known causes. */
export function diagnoseLoadFailure(path: string): LoadDiagnosis | undefined {
  const dir = dirname(path);
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const missing = bareImports(source).filter((name) => !installedFor(dir, name));
  // The folder's package.json: models are ES modules, which a .ts file is only in a package whose type is module.
  const pkg = nearestPackageJson(dir);
  const type = pkg === undefined ? undefined : (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: string }).type;
  const commonJs = path.endsWith('.ts') && type !== 'module';
  const typeFix = pkg === undefined ? 'npm init -y && npm pkg set type=module' : 'npm pkg set type=module';
  if (missing.length > 0) {
    const wanted = missing.map(installSpec);
    const them = missing.length === 1 ? 'it' : 'them';
    return {
      message: `the model imports ${missing.map((n) => `'${n}'`).join(' and ')}, which cannot be found from its folder ${dir} (no node_modules there or above has ${them})${commonJs ? ', and no package.json there says "type": "module"' : ''}`,
      hint: `cd ${commonJs && pkg !== undefined ? dirname(pkg) : dir} && ${commonJs ? `${typeFix} && ` : ''}npm install --save-dev ${wanted.join(' ')}`,
    };
  }
  if (commonJs) {
    return {
      message:
        pkg === undefined
          ? `the model is loaded as CommonJS: no package.json at or above ${dir} says "type": "module", and models are ES modules`
          : `the model is loaded as CommonJS: ${pkg} says ${type === undefined ? 'no "type"' : `"type": "${type}"`}, and models are ES modules`,
      hint: `cd ${pkg === undefined ? dir : dirname(pkg)} && ${typeFix} (or name the model file .mts)`,
    };
  }
  return undefined;
}
