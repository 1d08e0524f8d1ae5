// Installing the packed modelcheck into a project outside the repository, offline: the CI test
// of the published package (test/e2e/package.test.ts). `npm ci` filled npm's cache with the
// tarballs of every package this repository's lockfile names, but not with the registry's
// package documents that `npm install` reads to choose versions; a lockfile for the new project,
// cut from this repository's, lets npm take the tarballs from the cache alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

interface Lockfile {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The lockfile path npm would find `name` at for the package at `from` (hoisting: nearest node_modules up). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const path = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (path in packages) return path;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/**
 * A lockfile for a project whose package.json depends on `dependencies` and `devDependencies`
 * (name to spec), where modelcheck is the tarball at `tarball` (a path as package.json says it)
 * and every other package is the one this repository's lockfile (`repoLock`) has.
 */
export function projectLock(options: {
  repoLock: string;
  tarball: { spec: string; file: string };
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
}): Lockfile {
  const repo = JSON.parse(readFileSync(options.repoLock, 'utf8')) as Lockfile;
  const own = repo.packages[''];
  const packages: Record<string, LockEntry> = {
    '': { name: 'project', dependencies: options.dependencies, devDependencies: options.devDependencies ?? {} },
    'node_modules/modelcheck': {
      version: own.version,
      resolved: options.tarball.spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(options.tarball.file)).digest('base64')}`,
      license: own.license,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  const visit = (path: string) => {
    const entry = path === 'node_modules/modelcheck' ? own : repo.packages[path];
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const [n, spec] of Object.entries(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[n]?.optional) wanted[n] = spec;
    for (const name of Object.keys(wanted)) {
      const at = locate(repo.packages, path === 'node_modules/modelcheck' ? '' : path, name);
      if (at === undefined || at in packages) continue;
      const { dev, devOptional, ...rest } = repo.packages[at];
      packages[at] = devOptional ? { ...rest, optional: true } : rest;
      visit(at);
    }
  };
  visit('node_modules/modelcheck');
  for (const name of Object.keys(options.devDependencies ?? {})) {
    const at = locate(repo.packages, '', name);
    if (at === undefined || at in packages) continue;
    const { dev, devOptional, ...rest } = repo.packages[at];
    packages[at] = { ...rest, dev: true };
    visit(at);
  }
  return { name: 'project', lockfileVersion: 3, requires: true, packages };
}
