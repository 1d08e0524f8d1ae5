// `modelcheck init [dir]`: a starting project for models kept outside this repository (issue 47):
// a package.json (an ES module package with modelcheck, immutable and vitest as dev
// dependencies), a tsconfig.json, one model and one vitest test that checks it with `check()`.
// From it, `npm install && npx modelcheck model.ts && npx vitest run` works.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import type { CliIo } from '../io.ts';
import { INSTALLED, installSpec, pinnedVersion } from '../modelPackage.ts';

/** The version of `name` this modelcheck pins (modelPackage.pinnedVersion). */
function versionOf(name: string): string {
  const version = pinnedVersion(name);
  if (version === undefined) throw new Error(`modelcheck init: cannot read the version of ${name} that modelcheck's package.json pins`);
  return version;
}

/** How the project depends on this modelcheck (modelPackage.installSpec, as package.json says it). */
function modelcheckSpec(): string {
  const spec = installSpec('modelcheck');
  if (spec === 'modelcheck') return '*';
  return spec.startsWith('modelcheck@') ? spec.slice('modelcheck@'.length) : `file:${spec}`;
}

// The README's model (test/fixtures/dieHard.ts from its imports on; test/cli/init.test.ts holds them equal).
const MODEL = `// A first model: the Die Hard jugs, as in the TLA+ examples. Edit it, then
// \`npx modelcheck model.ts\` searches every reachable state. NotSolved is violated on purpose:
// the shortest counterexample is the puzzle's solution.
import { Record } from 'immutable';
import { action, defineSingleModel, invariant } from 'modelcheck';

const Jugs = Record({ small: 0, big: 0 }, 'Jugs');
type Jugs = ReturnType<typeof Jugs>;

export default defineSingleModel<Jugs>({
  name: 'DieHard',
  init: () => [Jugs()],
  actions: [
    action('FillSmallJug', { next: (s) => s.set('small', 3) }),
    action('FillBigJug', { next: (s) => s.set('big', 5) }),
    action('EmptySmallJug', { next: (s) => s.set('small', 0) }),
    action('EmptyBigJug', { next: (s) => s.set('big', 0) }),
    action('SmallToBig', {
      next: (s) => {
        const poured = Math.min(s.big + s.small, 5) - s.big;
        return Jugs({ small: s.small - poured, big: s.big + poured });
      },
    }),
    action('BigToSmall', {
      next: (s) => {
        const poured = Math.min(s.big + s.small, 3) - s.small;
        return Jugs({ small: s.small + poured, big: s.big - poured });
      },
    }),
  ],
  properties: [invariant('NotSolved', 'The big jug never holds exactly 4 gallons.', (s) => s.big !== 4)],
  expectedViolations: ['NotSolved'],
});
`;

const TEST = `// The model's verdict, pinned: TLC finds 16 distinct states and a 7-state counterexample.
import { check } from 'modelcheck';
import { expect, it } from 'vitest';
import model from './model.ts';

it('finds the shortest way to 4 gallons, in 16 states', () => {
  const [v] = check(model).variants;
  expect([v.verdict, v.metExpectations, v.stats.distinctStates]).toEqual(['violated', true, 16]);
  expect(v.violations[0].trace.map((step) => step.action ?? 'init')).toEqual([
    'init', 'FillBigJug', 'BigToSmall', 'EmptySmallJug', 'BigToSmall', 'FillBigJug', 'BigToSmall',
  ]);
});
`;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2023",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "allowImportingTsExtensions": true,
    "noEmit": true,
    "skipLibCheck": true,
    // Models run in Node, not a browser: no DOM types. And no global types from every package
    // under node_modules/@types (modelcheck's explorer brings d3's): each costs every type check.
    // Add "node" here (and @types/node) if a model uses Node's own API.
    "lib": ["ES2023"],
    "types": []
  },
  "include": ["*.ts"]
}
`;

/**
 * For a project linked to a checkout of modelcheck's repository, which runs its sources and has
 * no dist/ until `npm run build`: the project's tests import the sources too, as the CLI does
 * (bin/resolveHook.js), through the export condition package.json names "source".
 */
const VITEST_CONFIG = `// modelcheck is linked from a checkout of its repository, which has no build: the tests import
// its TypeScript sources (its package.json's "source" export), as its CLI does. (The lists
// replace Vite's defaults, which they keep.) A project on the published package needs no file.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  ssr: {
    resolve: {
      conditions: ['source', 'module', 'node', 'development|production'],
      externalConditions: ['source', 'node', 'module-sync'],
    },
  },
});
`;

type PackageJson = { [field: string]: unknown };

/** npm init's placeholder test script, which a project that has not chosen one still carries. */
const PLACEHOLDER_TEST = /no test specified/;

/**
 * The project's package.json for folder `dir`: a new one, or the one there with what the model
 * needs added (an ES module package, the three dev dependencies, the scripts) and nothing it
 * already says changed, but for two things a new project carries from npm: `"type": "commonjs"`
 * (npm 11's `npm init`), where no JavaScript file there depends on it, and the placeholder test
 * script. A string is the reason it cannot be done.
 */
function packageJson(dir: string): { text: string; changed: readonly string[] } | string {
  const path = join(dir, 'package.json');
  const name =
    basename(resolve(dir))
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'models';
  let pkg: PackageJson = { name, private: true };
  const changed: string[] = [];
  if (existsSync(path)) {
    try {
      pkg = JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
    } catch (e) {
      return `${path} is not JSON (${(e as Error).message})`;
    }
    if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) return `${path} does not hold an object`;
  }
  if (pkg.type !== 'module') {
    // Any JavaScript file of the project (node_modules apart) would be read as an ES module too.
    const scripts = (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => /\.(js|jsx)$/.test(f) && !f.split(sep).includes('node_modules'))
      .sort();
    if (pkg.type !== undefined && pkg.type !== 'commonjs') return `${path} says "type": ${JSON.stringify(pkg.type)}`;
    if (scripts.length > 0)
      return `models are ES modules ("type": "module" in package.json), and ${scripts.join(', ')} in ${resolve(dir)} would become ES modules too: init the models into a folder of their own`;
    pkg.type = 'module';
    changed.push('"type": "module"');
  }
  const scripts = { ...((pkg.scripts as Record<string, string> | undefined) ?? {}) };
  if (scripts.check === undefined) scripts.check = 'modelcheck model.ts';
  if (scripts.test === undefined || PLACEHOLDER_TEST.test(scripts.test)) scripts.test = 'vitest run';
  pkg.scripts = scripts;
  const declared = (n: string) =>
    [pkg.dependencies, pkg.devDependencies].some((d) => d !== null && typeof d === 'object' && n in (d as object));
  const devDependencies = { ...((pkg.devDependencies as Record<string, string> | undefined) ?? {}) };
  const wanted: [string, () => string][] = [
    ['immutable', () => versionOf('immutable')],
    ['modelcheck', modelcheckSpec],
    ['vitest', () => versionOf('vitest')],
  ];
  for (const [n, spec] of wanted) {
    if (declared(n)) continue;
    devDependencies[n] = spec();
    changed.push(n);
  }
  pkg.devDependencies = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => a.localeCompare(b)));
  return { text: `${JSON.stringify(pkg, null, 2)}\n`, changed };
}

export async function runInit(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(
      'Usage: modelcheck init [dir]\n\nWrites a starting project into dir (default: the current folder): package.json, tsconfig.json, model.ts, model.test.ts.\n',
    );
    return EXIT.OK;
  }
  const args = argv.filter((a) => !a.startsWith('-'));
  if (args.length > 1 || args.length < argv.length) {
    io.stderr('modelcheck init: takes at most one folder and no options: modelcheck init [dir]\n');
    return EXIT.ERROR;
  }
  const dir = args[0] ?? '.';
  const files: readonly (readonly [string, string])[] = [
    ['tsconfig.json', TSCONFIG],
    ['model.ts', MODEL],
    ['model.test.ts', TEST],
    ...(INSTALLED ? [] : [['vitest.config.ts', VITEST_CONFIG] as const]),
  ];
  const taken = files.map(([f]) => join(dir, f)).filter((p) => existsSync(p));
  if (taken.length > 0) {
    io.stderr(
      `modelcheck init: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}; nothing written (init writes into a folder without them)\n`,
    );
    return EXIT.ERROR;
  }
  const hadPackage = existsSync(join(dir, 'package.json'));
  mkdirSync(dir, { recursive: true });
  const pkg = packageJson(dir);
  if (typeof pkg === 'string') {
    io.stderr(`modelcheck init: ${pkg}; nothing written\n`);
    return EXIT.ERROR;
  }
  writeFileSync(join(dir, 'package.json'), pkg.text);
  for (const [f, text] of files) writeFileSync(join(dir, f), text);
  const cd = dir === '.' ? '' : `cd ${dir} && `;
  const wrote = files.map(([f]) => join(dir, f));
  const packageLine = hadPackage
    ? `added to ${join(dir, 'package.json')}: ${pkg.changed.length > 0 ? pkg.changed.join(', ') : 'nothing (it had all the model needs)'}, scripts check and test where it had none\n`
    : '';
  io.stdout(
    `wrote ${(hadPackage ? wrote : [join(dir, 'package.json'), ...wrote]).join(', ')}\n${packageLine}next: ${cd}npm install && npx modelcheck model.ts && npx vitest run\n`,
  );
  return EXIT.OK;
}
