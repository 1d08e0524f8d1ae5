// Progress lines (src/cli/progress.ts): quiet for the first two seconds, then in place on a
// terminal, one line every five seconds elsewhere, and only ever through the stderr writer.
import { describe, expect, it } from 'vitest';
import { progressPrinter, progressLine } from '../../src/cli/progress.ts';
import type { Progress } from 'modelcheck';

const at = (seconds: number, variant = 'v'): Progress => ({
  variant,
  distinctStates: 1000 * seconds,
  statesGenerated: 5000 * seconds,
  depth: seconds,
  queue: 10,
  seconds,
});

describe('progress', () => {
  it('reads distinct states, states per second, queue length and depth', () => {
    expect(progressLine(at(4))).toBe('v: 4,000 distinct states, 1,000/s, queue 10, depth 4');
  });

  it('off a terminal: nothing before 2 s, then a line every 5 s', () => {
    const lines: string[] = [];
    const p = progressPrinter((t) => lines.push(t), false);
    for (const s of [1, 1.9, 2.1, 3, 6, 7.2, 8]) p.onProgress(at(s));
    p.clear();
    expect(lines).toEqual([`${progressLine(at(2.1))}\n`, `${progressLine(at(7.2))}\n`]);
  });

  it('on a terminal: rewrites one line in place, with every variant running, and clears it at the end', () => {
    const out: string[] = [];
    const p = progressPrinter((t) => out.push(t), true);
    p.onProgress(at(1, 'a'));
    p.onProgress(at(3, 'b'));
    p.onProgress(at(4, 'a'));
    p.clear();
    expect(out).toEqual([
      `\r\x1b[K${progressLine(at(1, 'a'))} | ${progressLine(at(3, 'b'))}`,
      `\r\x1b[K${progressLine(at(4, 'a'))} | ${progressLine(at(3, 'b'))}`,
      '\r\x1b[K',
    ]);
  });

  it('prints nothing and clears nothing for a run shorter than 2 s', () => {
    const out: string[] = [];
    const p = progressPrinter((t) => out.push(t), true);
    p.onProgress(at(1.5));
    p.clear();
    expect(out).toEqual([]);
  });
});
