// `modelcheck init [dir]`: a starting project for models kept outside this repository (issue 47):
// a package.json (an ES module package with modelcheck, immutable and vitest as dev
// dependencies), a tsconfig.json, one model and one vitest test that checks it with `check()`.
// From it, `npm install && npx modelcheck model.ts && npx vitest run` works.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import type { CliIo } from '../io.ts';
import { installedVersion, OWN_ROOT } from '../modelPackage.ts';

/** The version of `name` this modelcheck is installed with; every package init names is installed with it. */
function versionOf(name: string): string {
  const version = installedVersion(name);
  if (version === undefined) throw new Error(`modelcheck init: cannot read the version of ${name} installed with modelcheck`);
  return version;
}

/**
 * How the project depends on this modelcheck: a checkout (not under node_modules) by its path,
 * so that `npm install` links it offline; an installed one by its version.
 */
function modelcheckSpec(): string {
  return OWN_ROOT.split(sep).includes('node_modules') ? `^${versionOf('modelcheck')}` : `file:${OWN_ROOT}`;
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
    "skipLibCheck": true
  },
  "include": ["*.ts"]
}
`;

/** The project's package.json for folder `dir`. */
function packageJson(dir: string): string {
  const name =
    basename(resolve(dir))
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'models';
  const pkg = {
    name,
    private: true,
    type: 'module',
    scripts: { check: 'modelcheck model.ts', test: 'vitest run' },
    devDependencies: { immutable: versionOf('immutable'), modelcheck: modelcheckSpec(), vitest: versionOf('vitest') },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
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
    ['package.json', packageJson(dir)],
    ['tsconfig.json', TSCONFIG],
    ['model.ts', MODEL],
    ['model.test.ts', TEST],
  ];
  const taken = files.map(([f]) => join(dir, f)).filter((p) => existsSync(p));
  if (taken.length > 0) {
    io.stderr(
      `modelcheck init: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}; nothing written (init writes into a folder without them)\n`,
    );
    return EXIT.ERROR;
  }
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of files) writeFileSync(join(dir, f), text);
  const cd = dir === '.' ? '' : `cd ${dir} && `;
  io.stdout(`wrote ${files.map(([f]) => join(dir, f)).join(', ')}\nnext: ${cd}npm install && npx modelcheck model.ts && npx vitest run\n`);
  return EXIT.OK;
}
