// `modelcheck init [dir]` (issue 47): a starting project outside the repository whose model runs
// and whose vitest test passes. npm install is not run here (this machine may be offline): the
// project's node_modules are linked to this checkout's, the packages npm would install.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const BIN = join(ROOT, 'bin', 'modelcheck.js');
const node = (args: readonly string[], cwd: string) => spawnSync(process.execPath, [...args], { cwd, encoding: 'utf8' });
const version = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('modelcheck init', () => {
  it('writes package.json, tsconfig.json, a model and its test; the model runs and the test passes', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'modelcheck-init-')), 'My Models');
    const r = node([BIN, 'init', dir], ROOT);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`next: cd ${dir} && npm install && npx modelcheck model.ts && npx vitest run`);
    // (vitest.config.ts: this checkout has no dist/ for the project's test to import; init says so in the file.)
    expect(readdirSync(dir).sort()).toEqual(['model.test.ts', 'model.ts', 'package.json', 'tsconfig.json', 'vitest.config.ts']);
    // The model is the README's (test/fixtures/dieHard.ts) from its imports on.
    const fromImports = (text: string) => text.slice(text.indexOf('import '));
    expect(fromImports(readFileSync(join(dir, 'model.ts'), 'utf8'))).toBe(
      fromImports(readFileSync(join(ROOT, 'test', 'fixtures', 'dieHard.ts'), 'utf8')),
    );
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toEqual({
      name: 'my-models',
      private: true,
      type: 'module',
      scripts: { check: 'modelcheck model.ts', test: 'vitest run' },
      devDependencies: { immutable: version('immutable'), modelcheck: `file:${ROOT}`, vitest: version('vitest') },
    });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'modelcheck'));
    for (const name of ['immutable', 'vitest']) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
    const check = node([BIN, 'model.ts', '--workers', '1'], dir);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('default  violated           16 states, depth   8  expectations met  violated: NotSolved');
    const test = node([join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], dir);
    expect(test.status).toBe(0);
  }, 120_000);

  it('writes nothing over files that exist, and says which', () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-init-'));
    writeFileSync(join(dir, 'model.ts'), '// mine\n');
    const r = node([BIN, 'init', dir], ROOT);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `modelcheck init: ${join(dir, 'model.ts')} already exists; nothing written (init writes into a folder without them)\n`,
    );
    expect(readdirSync(dir)).toEqual(['model.ts']);
  });

  it('adds what the model needs to a package.json that is there, and changes nothing it says', () => {
    // As `npm install ./modelcheck-0.1.0.tgz` leaves an empty folder: a package.json with only that dependency.
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-init-'));
    writeFileSync(join(dir, 'package.json'), '{\n  "dependencies": {\n    "modelcheck": "file:../modelcheck-0.1.0.tgz"\n  }\n}\n');
    const r = node([BIN, 'init'], dir);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      'wrote tsconfig.json, model.ts, model.test.ts, vitest.config.ts\nadded to package.json: "type": "module", immutable, vitest, scripts check and test where it had none\nnext: npm install && npx modelcheck model.ts && npx vitest run\n',
    );
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual({
      dependencies: { modelcheck: 'file:../modelcheck-0.1.0.tgz' },
      type: 'module',
      scripts: { check: 'modelcheck model.ts', test: 'vitest run' },
      devDependencies: { immutable: version('immutable'), vitest: version('vitest') },
    });
  });

  it("replaces npm init's commonjs type and placeholder test where no JavaScript file depends on them", () => {
    // What npm 11's `npm init -y` writes (the fields that matter here).
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-init-'));
    const npmInit = {
      name: 'team-models',
      version: '1.0.0',
      type: 'commonjs',
      scripts: { test: 'echo "Error: no test specified" && exit 1' },
    };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(npmInit));
    expect(node([BIN, 'init'], dir).status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect([pkg.name, pkg.version, pkg.type, pkg.scripts]).toEqual([
      'team-models',
      '1.0.0',
      'module',
      { test: 'vitest run', check: 'modelcheck model.ts' },
    ]);
    expect(pkg.devDependencies).toEqual({ immutable: version('immutable'), modelcheck: `file:${ROOT}`, vitest: version('vitest') });

    const withScript = mkdtempSync(join(tmpdir(), 'modelcheck-init-'));
    writeFileSync(join(withScript, 'package.json'), JSON.stringify(npmInit));
    mkdirSync(join(withScript, 'src'));
    writeFileSync(join(withScript, 'src', 'index.js'), 'module.exports = 1;\n');
    const refused = node([BIN, 'init'], withScript);
    expect([refused.status, refused.stderr]).toEqual([
      2,
      `modelcheck init: models are ES modules ("type": "module" in package.json), and src/index.js in ${withScript} would become ES modules too: init the models into a folder of their own; nothing written\n`,
    ]);
    expect(readdirSync(withScript).sort()).toEqual(['package.json', 'src']);
  });
});
