// What a search is made from: code is digested without its comments and layout, so that only
// a change of code or of a string changes a digest; a model's inputs follow its local imports.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { codeDigest, localModules, searchInputsDigest } from '../../src/cli/sourceDigests.ts';

const code = `// The counter.
export const top = 3; /* inclusive */
export function next(n: number): number {
  return n < top ? n + 1 : n;
}
const label = \`at \${top} // not a comment\`;
`;

describe('codeDigest', () => {
  it('ignores comments, blank lines and layout', () => {
    const relaid = `export const top = 3;\n\nexport function next(n: number): number { return n < top ? n + 1 : n; }\n// A new comment.\nconst label = \`at \${top} // not a comment\`;\n`;
    expect(codeDigest('a.ts', relaid)).toBe(codeDigest('a.ts', code));
  });

  it('sees a change of code, of a number and of the text inside a template string', () => {
    expect(codeDigest('a.ts', code.replace('n + 1', 'n + 2'))).not.toBe(codeDigest('a.ts', code));
    expect(codeDigest('a.ts', code.replace('top = 3', 'top = 4'))).not.toBe(codeDigest('a.ts', code));
    expect(codeDigest('a.ts', code.replace('// not a comment', '// not a remark'))).not.toBe(codeDigest('a.ts', code));
  });
});

describe('localModules', () => {
  it("follows a model's relative imports, not the package's", () => {
    const files = localModules('models/move.ts').map((f) => f.slice(resolve('.').length + 1));
    expect(files.sort()).toEqual([
      'models/capi/names.ts',
      'models/capi/util.ts',
      'models/clusterctl/mover.ts',
      'models/move.ts',
      'models/move/clusterController.ts',
      'models/move/dockerClusterController.ts',
      'models/move/dockerMachineController.ts',
      'models/move/kubernetes.ts',
      'models/move/machineController.ts',
      'models/move/ownerControllers.ts',
      'models/move/properties.ts',
      'models/move/world.ts',
    ]);
  });
});

describe('codeDigest and a formatter', () => {
  it('ignores a trailing comma and a JSDoc comment', () => {
    const a = 'export const xs = [1, 2];\nexport function f(a: number, b: number) { return a + b; }\n';
    const b =
      '/** Two numbers. */\nexport const xs = [\n  1,\n  2,\n];\nexport function f(\n  a: number,\n  b: number,\n) {\n  return a + b;\n}\n';
    expect(codeDigest('a.ts', b)).toBe(codeDigest('a.ts', a));
    expect(codeDigest('a.ts', a.replace('[1, 2]', '[2, 1]'))).not.toBe(codeDigest('a.ts', a));
  });
});

describe("searchInputsDigest (a plan's inputs)", () => {
  it('is the same for two copies of a model in different folders, and a comment changes nothing; code does', () => {
    const root = mkdtempSync(join(tmpdir(), 'modelcheck-inputs-'));
    const model = readFileSync('test/fixtures/matrix.ts', 'utf8').replace("from 'modelcheck'", `from '${resolve('src/index.ts')}'`);
    const copy = (folder: string, text: string) => {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, 'counter.mts'), text);
      return join(root, folder, 'counter.mts');
    };
    const here = searchInputsDigest(copy('checkout', model));
    // Another checkout (a Job's image) of the same code.
    expect(searchInputsDigest(copy('image/project', model))).toBe(here);
    expect(searchInputsDigest(copy('commented', `// A note.\n${model}`))).toBe(here);
    expect(searchInputsDigest(copy('changed', model.replace("'reach'", "'reached'")))).not.toBe(here);
  });
});
