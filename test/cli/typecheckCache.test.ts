// The type check's answer is kept by the digest of the files it read (src/cli/typecheckCache.ts):
// a second run of unchanged files takes the kept answer, and any change to the model's own files
// (a comment included: `// @ts-expect-error` is one) makes the compiler look again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typecheckKey } from '../../src/cli/typecheckCache.ts';
import { spawnSync } from 'node:child_process';

const INDEX = resolve('src/index.ts');
let dir: string;
let cache: string;

// A counter model split in two files, as a model with local modules is: the bound lives in
// bound.ts, which the model imports.
const model = () => `import { action, defineSingleModel, invariant } from '${INDEX}';
import { limit } from './bound.ts';

export default defineSingleModel<number>({
  name: 'Kept',
  init: () => [0],
  actions: [action('inc', { next: (n) => (n < limit ? n + 1 : undefined) })],
  properties: [invariant('Bounded', 'The counter stays at most 3.', (n) => n <= limit)],
  checkDeadlock: false,
});
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'modelcheck-tc-'));
  cache = join(dir, 'cache');
  // An ES module package, as a model's own project is.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'model.ts'), model());
  writeFileSync(join(dir, 'unrelated.ts'), 'export const x = 1;\n');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI in a process of its own, as a user runs it (one process loads a model once). */
function run(file: string) {
  const r = spawnSync(process.execPath, ['bin/modelcheck.js', file, '--no-progress', '--workers', '1'], {
    encoding: 'utf8',
    env: { ...process.env, MODELCHECK_CACHE_DIR: cache, NO_COLOR: '1' },
  });
  return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
}

const kept = () => readdirSync(cache).filter((f) => f.startsWith('typecheck-'));

describe('the type check kept by digest', () => {
  it('keeps the compiler answer and gives it back while no input changes', () => {
    writeFileSync(join(dir, 'bound.ts'), "export const limit: number = '3';\n");
    const file = join(dir, 'model.ts');
    const first = run(file);
    expect(first.exitCode).toBe(2);
    expect(first.stderr).toContain("bound.ts:1:14 TS2322: Type 'string' is not assignable to type 'number'.");
    expect(kept()).toHaveLength(1);
    // The kept answer is what the next run reports: rewrite it, and the run says what it says.
    const path = join(cache, kept()[0]);
    writeFileSync(path, readFileSync(path, 'utf8').replace("Type 'string'", "Type 'kept string'"));
    const second = run(file);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain("TS2322: Type 'kept string' is not assignable to type 'number'.");
  });

  it('asks the compiler again once an imported file changes', () => {
    writeFileSync(join(dir, 'bound.ts'), 'export const limit: number = 3;\n');
    const r = run(join(dir, 'model.ts'));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Bounded');
    expect(kept()).toHaveLength(2);
  });

  it('digests every local module the model imports, comments included, and nothing else', () => {
    const file = join(dir, 'model.ts');
    const before = typecheckKey(file);
    writeFileSync(join(dir, 'unrelated.ts'), 'export const x = 2;\n');
    expect(typecheckKey(file)).toBe(before);
    writeFileSync(join(dir, 'bound.ts'), '// @ts-expect-error\nexport const limit: number = 3;\n');
    expect(typecheckKey(file)).not.toBe(before);
  });
});
