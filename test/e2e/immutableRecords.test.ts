// The CLI gives a model's `import 'immutable'` FlatRecord types for its Records
// (src/engine/values/immutableForModels.ts, by bin/resolveHook.js), unless
// MODELCHECK_RECORDS=immutable; either way a search finds the same: the same counts, verdicts,
// coverage and traces, printed and as JSON. (The Records of the models with docs records, the
// bug models', are FlatRecords in every CLI run the suite makes, and must give the record's figures.)
import { describe, expect, it } from 'vitest';
import { comparable, runProcess } from '../helpers/cliProcess.ts';

const run = (args: readonly string[], records?: 'immutable') =>
  runProcess([...args, '--no-typecheck', '--no-progress'], records ? { env: { MODELCHECK_RECORDS: records } } : {});

describe("a model's immutable.js Records under the CLI", () => {
  it('are FlatRecords, or immutable.js Records with MODELCHECK_RECORDS=immutable', async () => {
    const [flat, own] = await Promise.all([run(['test/fixtures/recordKind.ts']), run(['test/fixtures/recordKind.ts'], 'immutable')]);
    expect(flat.stdout).toContain('records: FlatRecord');
    expect(own.stdout).toContain('records: immutable.js Record');
  });

  it('give the search immutable.js Records give: Die Hard (a trace) and TwoPhase with 5 resource managers', async () => {
    for (const args of [['test/fixtures/dieHard.ts'], ['test/fixtures/resumable.ts', '--variant', 'twoPhase', '--param', 'rm=5']]) {
      const [flat, own] = await Promise.all([run([...args, '--workers', '1']), run([...args, '--workers', '1'], 'immutable')]);
      expect(flat.code).toBe(own.code);
      expect(flat.stdout.replace(/\d+(\.\d+)? ?(s|ms)\b.*/g, '')).toEqual(own.stdout.replace(/\d+(\.\d+)? ?(s|ms)\b.*/g, ''));
      const [flatJson, ownJson] = await Promise.all([run([...args, '--json']), run([...args, '--json'], 'immutable')]);
      expect(comparable(flatJson.stdout)).toEqual(comparable(ownJson.stdout));
    }
  }, 60_000);
});
