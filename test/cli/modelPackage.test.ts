// A model kept in a folder of its own (issue 47): where that folder is not set up for it, the
// load fails with what is wrong and the command that mends it (exit 2), not with Node's words
// about a require cycle or a missing package; set up, the same model runs. The CLI runs as a
// user runs it (node bin/modelcheck.js), from folders outside the repository.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareImports } from '../../src/cli/modelPackage.ts';

const ROOT = resolve('.');
const BIN = join(ROOT, 'bin', 'modelcheck.js');

/** A folder outside the repository holding the README's Die Hard model (test/fixtures/dieHard.ts), set up as `setup` says. */
function folder(setup: { readonly packageJson?: object; readonly linked?: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-outside-'));
  copyFileSync(join(ROOT, 'test', 'fixtures', 'dieHard.ts'), join(dir, 'model.ts'));
  if (setup.packageJson) writeFileSync(join(dir, 'package.json'), JSON.stringify(setup.packageJson));
  if (setup.linked) {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'modelcheck'));
    symlinkSync(join(ROOT, 'node_modules', 'immutable'), join(dir, 'node_modules', 'immutable'));
  }
  return dir;
}

function run(dir: string) {
  const r = spawnSync(process.execPath, [BIN, 'model.ts', '--no-typecheck', '--workers', '1'], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('a model in a folder of its own', () => {
  it('neither the packages nor an ES module package.json: one error naming the folder, and the command', () => {
    const dir = folder({});
    const r = run(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error MC002 in model.ts: cannot load model.ts: the model imports 'immutable' and 'modelcheck', which cannot be found from its folder ${dir} (no node_modules there or above has them), and no package.json there says "type": "module"`,
    );
    expect(r.stderr).toContain(
      `hint: cd ${dir} && npm init -y && npm pkg set type=module && npm install --save-dev immutable@5.2.0 ${ROOT}`,
    );
  });

  it('the packages there but the package loaded as CommonJS: says so, and how to make it a module', () => {
    const dir = folder({ packageJson: { name: 'mine', type: 'commonjs' }, linked: true });
    const r = run(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `the model is loaded as CommonJS: ${join(dir, 'package.json')} says "type": "commonjs", and models are ES modules`,
    );
    expect(r.stderr).toContain(`hint: cd ${dir} && npm pkg set type=module (or name the model file .mts)`);
  });

  it("set up as the hints say, the model runs (exit 0, the guide's verdict)", () => {
    const dir = folder({ packageJson: { name: 'mine', type: 'module' }, linked: true });
    const r = run(dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/violated/);
  }, 60_000);

  it("reads the bare imports of a model, leaving out Node's own modules and the package's import map", () => {
    expect(
      bareImports(
        "import { List } from 'immutable';\nimport { k8s } from 'modelcheck';\nimport x from './x.ts';\nimport('node:fs');\nimport { join } from 'path';\nimport y from '#lib';",
      ),
    ).toEqual(['immutable', 'modelcheck']);
  });
});
