// `npm test`'s type check: the TypeScript compiler over the whole project (tsconfig.json: src,
// models, test, bin, bench, scripts), as `npm run typecheck` runs it. It runs as one test among the
// others rather than before them: it takes about 40 s of one core, and with two workers the other
// one's searches use the second core meanwhile, where before the suite waited for it.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('the project', () => {
  it('type-checks: tsc --noEmit reports no error', async () => {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [TSC, '--noEmit', '--pretty', 'false'], { maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });
    // The compiler's own messages, file and line each, are the failure's message.
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 600_000);
});
