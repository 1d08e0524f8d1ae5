// The CLI gives a model's `import 'immutable'` FlatRecord types for its Records and FlatLists for
// its short Lists (src/engine/values/immutableForModels.ts, by bin/resolveHook.js), unless
// MODELCHECK_RECORDS=immutable; either way a search finds the same: the same counts, verdicts,
// coverage and traces, printed and as JSON. (The suite's own tests of the bug models run the CLI
// in the test's process, without the CLI's module hooks: their Records are immutable.js's there.
// Here one of them runs as a user runs it, and must give its docs record.)
import { describe, expect, it } from 'vitest';
import { expectAsRecorded } from '../helpers/docsRecord.ts';
import { comparable, runProcess } from '../helpers/cliProcess.ts';

const run = (args: readonly string[], records?: 'immutable') =>
  runProcess([...args, '--no-typecheck', '--no-progress'], records ? { env: { MODELCHECK_RECORDS: records } } : {});

describe("a model's immutable.js Records under the CLI", () => {
  it('are FlatRecords, or immutable.js Records with MODELCHECK_RECORDS=immutable', async () => {
    const [flat, own] = await Promise.all([run(['test/fixtures/recordKind.ts']), run(['test/fixtures/recordKind.ts'], 'immutable')]);
    expect(flat.stdout).toContain('records: FlatRecord, lists: FlatList');
    expect(own.stdout).toContain('records: immutable.js Record, lists: immutable.js List');
  });

  it('give the search immutable.js Records and Lists give: Die Hard (a trace), TwoPhase with 5 resource managers, LamportMutex (Lists of Lists)', async () => {
    for (const args of [
      ['test/fixtures/dieHard.ts'],
      ['test/fixtures/resumable.ts', '--variant', 'twoPhase', '--param', 'rm=5'],
      ['test/fixtures/lamportSmall.ts'],
    ]) {
      const [flat, own] = await Promise.all([run([...args, '--workers', '1']), run([...args, '--workers', '1'], 'immutable')]);
      expect(flat.code).toBe(own.code);
      expect(flat.stdout.replace(/\d+(\.\d+)? ?(s|ms)\b.*/g, '')).toEqual(own.stdout.replace(/\d+(\.\d+)? ?(s|ms)\b.*/g, ''));
      const [flatJson, ownJson] = await Promise.all([run([...args, '--json']), run([...args, '--json'], 'immutable')]);
      expect(comparable(flatJson.stdout)).toEqual(comparable(ownJson.stdout));
    }
  }, 60_000);

  it('give a bug model with Kubernetes objects its docs record: models/bugs/capi8946.ts, every variant', async () => {
    const ran = await run(['models/bugs/capi8946.ts', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const doc = JSON.parse(ran.stdout) as { variants: { name: string }[] };
    expect(doc.variants.map((v) => v.name)).toEqual(['v1.4.4', 'v1.5.0', 'v1.5.0.faults']);
    for (const v of doc.variants) expectAsRecorded('models/bugs/capi8946.ts', v);
  }, 60_000);
});
