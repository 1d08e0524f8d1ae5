// The same model gives the same report, whatever the number of worker threads and however often
// it is run: the same counts, verdicts and traces, in the model's order (only the timings may
// differ). Each variant's search is sequential; workers only check variants side by side.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

/** The JSON report without the figures that are timings. */
async function report(args: string[]) {
  const r = await runCli([...args, '--json', '--no-progress']);
  const doc = JSON.parse(r.stdout);
  for (const v of doc.variants) {
    delete v.seconds;
    delete v.livenessSeconds;
    delete v.statesPerSecond;
  }
  return { exitCode: r.exitCode, doc };
}

describe('determinism across runs and worker counts', () => {
  it('the liveness fixture (safety and liveness verdicts, traces and lassos): 1 worker, 2 workers, and 2 again', async () => {
    const one = await report(['test/fixtures/liveness.ts', '--workers', '1']);
    const two = await report(['test/fixtures/liveness.ts', '--workers', '2']);
    const again = await report(['test/fixtures/liveness.ts', '--workers', '2']);
    expect(one.doc.variants.length).toBeGreaterThan(2);
    expect(two).toEqual(one);
    expect(again).toEqual(one);
  });

  it('the move model\'s objects matrix (six rows, cut at 2,000 states each): 1 worker and 2', async () => {
    const args = ['models/move.ts', '--matrix', 'objects'];
    const one = await report([...args, '--workers', '1', '--max-states', '2000']);
    const two = await report([...args, '--workers', '2', '--max-states', '2000']);
    expect(two).toEqual(one);
  });
});
