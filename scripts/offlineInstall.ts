// Installing the packed modelcheck into a project outside the repository, offline: for the CI test
// of the published package (test/e2e/package.test.ts) and the start-up bench of a model outside
// the repository (bench/startup.ts --outside). `npm ci` filled npm's cache with the
// tarballs of every package this repository's lockfile names, but not with the registry's
// package documents that `npm install` reads to choose versions; a lockfile for the new project,
// cut from this repository's, lets npm take the tarballs from the cache alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

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
  /** Takes package `name` as the package at `from` finds it in this repository's tree, and what it needs. */
  const take = (from: string, name: string, dev: boolean) => {
    const at = locate(repo.packages, from, name);
    if (at === undefined || at in packages) return;
    const { dev: _dev, devOptional, ...rest } = repo.packages[at];
    packages[at] = dev ? { ...rest, dev: true } : devOptional ? { ...rest, optional: true } : rest;
    visit(at);
  };
  function visit(path: string): void {
    const entry = path === 'node_modules/modelcheck' ? own : repo.packages[path];
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const [n, spec] of Object.entries(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[n]?.optional) wanted[n] = spec;
    // (modelcheck's own dependencies are found from the repository's root, which it is there.)
    for (const name of Object.keys(wanted)) take(path === 'node_modules/modelcheck' ? '' : path, name, false);
  }
  visit('node_modules/modelcheck');
  for (const name of Object.keys(options.devDependencies ?? {})) take('', name, true);
  return { name: 'project', lockfileVersion: 3, requires: true, packages };
}

/** Runs npm; its output is returned, and a failure is thrown with what npm said. */
function npm(args: readonly string[], cwd: string): string {
  const r = spawnSync('npm', [...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} exited with ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

export interface PackedProject {
  /** The project folder: a package.json that depends on the tarball, node_modules installed. */
  readonly project: string;
  /** The tarball, copied into the project (package.json names it `file:<name>`). */
  readonly tarball: string;
  /** The paths the tarball holds, as `npm pack --json` lists them. */
  readonly packed: readonly string[];
}

/**
 * `npm pack` of this repository (its prepack builds dist/) into `work`, and a project in
 * `work/project` as `npm install ./modelcheck-<version>.tgz` leaves an empty folder, installed
 * offline. Its lockfile also holds immutable and vitest at the versions this repository pins,
 * for a later `npm install --offline` after `modelcheck init` adds them.
 */
export function installPacked(work: string): PackedProject {
  const packs = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT)) as { filename: string; files: { path: string }[] }[];
  const { filename, files } = packs[0];
  const project = join(work, 'project');
  mkdirSync(project, { recursive: true });
  const tarball = join(project, filename);
  copyFileSync(join(work, filename), tarball);
  const dependencies = { modelcheck: `file:${filename}` };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ dependencies }, null, 2)}\n`);
  const pins = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const lock = projectLock({
    repoLock: join(ROOT, 'package-lock.json'),
    tarball: { spec: `file:${filename}`, file: tarball },
    dependencies,
    devDependencies: { immutable: pins.dependencies.immutable, vitest: pins.devDependencies.vitest },
  });
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
  npm(['ci', '--offline', '--no-audit', '--no-fund'], project);
  return { project, tarball, packed: files.map((f) => f.path) };
}
