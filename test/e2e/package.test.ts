// The published package, as a controller team gets it (issue 47): `npm pack` of this repository
// (its prepack builds dist/), installed into a project outside it, offline, from the npm cache
// that `npm ci` filled (test/helpers/offlineInstall.ts); then what the README tells a new user:
// `npx modelcheck init`, `npm install`, `npx modelcheck model.ts`, `npx vitest run`; and a
// Kubernetes model (models/bugs/casskop370.ts) copied there runs from dist/, type-checked against
// the package's declarations. Verdicts and counts are those the same model gives in this
// repository (test/e2e/casskop370.test.ts, the README's Die Hard: TLC's 16 states).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installPacked } from '../../scripts/offlineInstall.ts';

const ROOT = resolve('.');

function sh(command: string, args: readonly string[], cwd: string) {
  const r = spawnSync(command, [...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the package, packed and installed outside the repository', () => {
  let project: string;
  let packed: readonly string[];
  let tarball: string;

  beforeAll(() => {
    ({ project, packed, tarball } = installPacked(mkdtempSync(join(tmpdir(), 'modelcheck-package-'))));
  }, 240_000);

  it('ships the CLI, the compiled code with its declarations, and no sources or tests', () => {
    expect(packed).toContain('bin/modelcheck.js');
    expect(packed).toContain('dist/index.js');
    expect(packed).toContain('dist/index.d.ts');
    expect(packed).toContain('dist/explore/page/index.html');
    // Mermaid's one browser file and its licence, rather than the package and its hundred dependencies.
    expect(packed).toContain('dist/explore/vendor/mermaid.min.js');
    expect(packed).toContain('dist/explore/vendor/mermaid.LICENSE');
    expect(existsSync(join(project, 'node_modules', 'mermaid'))).toBe(false);
    expect(packed.filter((f) => !/^(bin\/|dist\/|README\.md$|package\.json$)/.test(f))).toEqual([]);
    expect(existsSync(join(project, 'node_modules', 'modelcheck', 'src'))).toBe(false);
  });

  it('init, npm install, modelcheck model.ts and vitest run, as the README says', () => {
    const init = sh('npx', ['modelcheck', 'init'], project);
    expect([init.code, init.stderr]).toEqual([0, '']);
    expect(init.stdout).toContain('next: npm install && npx modelcheck model.ts && npx vitest run');
    const install = sh('npm', ['install', '--offline', '--no-audit', '--no-fund'], project);
    expect(install.code, install.stderr).toBe(0);
    const check = sh('npx', ['modelcheck', 'model.ts', '--workers', '1'], project);
    expect([check.code, check.stderr]).toEqual([0, '']);
    expect(check.stdout).toContain('default  violated           16 states, depth   8  expectations met  violated: NotSolved');
    const test = sh('npx', ['vitest', 'run'], project);
    expect(test.code, test.stdout + test.stderr).toBe(0);
  }, 120_000);

  it('a Kubernetes model copied there runs from dist/, type-checked against the declarations', () => {
    copyFileSync(join(ROOT, 'models', 'bugs', 'casskop370.ts'), join(project, 'casskop.ts'));
    const r = sh('npx', ['modelcheck', 'casskop.ts', '--workers', '1', '--no-progress'], project);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('b1a6a14f.crash  violated        2,024 states, depth  35  expectations met  violated: ScaleDownCompletes');
    // A type error the model runs with (a key is a string) is the compiler's, found through dist/'s declarations.
    const broken = `${readFileSync(join(project, 'casskop.ts'), 'utf8')}export const key: number = k8s.objectKey('Pod', 'p');\n`;
    writeFileSync(join(project, 'broken.ts'), broken);
    const typeError = sh('npx', ['modelcheck', 'broken.ts', '--workers', '1', '--no-progress'], project);
    expect(typeError.code).toBe(2);
    expect(typeError.stderr).toMatch(/broken\.ts:307:14 TS2322: Type 'string' is not assignable to type 'number'/);
  }, 120_000);

  it('the explorer serves its page and the diagram library from dist/', async () => {
    const child = spawn(join(project, 'node_modules', '.bin', 'modelcheck'), ['explore', 'model.ts'], { cwd: project });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`explore exited with ${code}: ${out}`)));
      });
      const page = await fetch(url);
      expect([page.status, (await page.text()).includes('<html')]).toEqual([200, true]);
      const mermaid = await fetch(new URL('vendor/mermaid.min.js', url));
      expect(mermaid.status).toBe(200);
      expect((await mermaid.arrayBuffer()).byteLength).toBe(
        readFileSync(join(ROOT, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js')).length,
      );
    } finally {
      child.kill();
    }
  }, 60_000);

  it('a model whose folder cannot resolve modelcheck: one error naming the folder, and the command', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'modelcheck-elsewhere-'));
    writeFileSync(join(elsewhere, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(join(project, 'model.ts'), join(elsewhere, 'model.ts'));
    const r = sh(join(project, 'node_modules', '.bin', 'modelcheck'), ['model.ts', '--no-progress'], elsewhere);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error MC002 in model.ts: cannot load model.ts: the model imports 'immutable' and 'modelcheck', which cannot be found from its folder ${elsewhere} (no node_modules there or above has them)`,
    );
    expect(r.stderr).toContain(`hint: cd ${elsewhere} && npm install --save-dev immutable@5.2.0 ${tarball}`);
  });
});
