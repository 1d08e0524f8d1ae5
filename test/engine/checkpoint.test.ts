// A search resumed from a checkpoint (src/engine/search/checkpoint.ts) ends exactly as the search
// that never stopped: the same counts, verdicts, premise counts, coverage and traces. Every
// model here is searched once straight through; then again with a checkpoint at every level
// boundary, each kept; then resumed from every one of them, with one thread and with two
// (the other's expander in this thread, the work split at once), and each result compared
// whole with the straight one's. The expected figures are those of the straight runs
// (themselves pinned to TLC's and hand counts in classicModels.test.ts and bfs.test.ts).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ModelError,
  checkVariant,
  checkVariantParallel,
  configureModel,
  expanderInThisThread,
  type CheckpointOptions,
  type SearchOptions,
  type Variant,
  type VariantResult,
} from 'modelcheck';
import { twoPhase } from '../fixtures/classic/twoPhase.ts';
import { comparable, smallModels } from '../helpers/smallModels.ts';
import resumable from '../fixtures/resumable.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-checkpoint-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A search of `v` that writes a checkpoint at every level boundary and keeps a copy of each: their paths. */
function everyCheckpoint(
  v: Variant<unknown>,
  tag: string,
  options: SearchOptions = {},
): { result: VariantResult<unknown>; copies: string[] } {
  const file = join(dir, `${tag}.ckpt`);
  const copies: string[] = [];
  const result = checkVariant(v, {
    ...options,
    checkpoint: {
      file,
      everySeconds: 0,
      identity: tag,
      onWrite: (f, depth) => {
        const copy = join(dir, `${tag}-${copies.length}-depth${depth}.ckpt`);
        copyFileSync(f, copy);
        copies.push(copy);
      },
    },
  });
  return { result, copies };
}

function resumeOptions(file: string, identity: string): { checkpoint: CheckpointOptions } {
  return { checkpoint: { file, everySeconds: 3600, identity, resume: true } };
}

async function resumed(v: Variant<unknown>, file: string, identity: string, threads: 1 | 2, options: SearchOptions = {}) {
  // Resume from a copy: a resumed search writes its own checkpoints over the file it started from.
  const own = `${file}.resume`;
  copyFileSync(file, own);
  const opts = { ...options, ...resumeOptions(own, identity) };
  if (threads === 1) return checkVariant(v, opts);
  return checkVariantParallel(v, opts, [expanderInThisThread(v, opts)], { warmUp: 0 });
}

describe('a search resumed from any level boundary ends as the search that never stopped', () => {
  for (const [name, model] of smallModels) {
    it(name, async () => {
      for (const [i, v] of (model.variants as Variant<unknown>[]).entries()) {
        const tag = `${name.replace(/[^A-Za-z0-9]+/g, '_')}-${i}`;
        const straight = checkVariant(v);
        const { result, copies } = everyCheckpoint(v, tag);
        expect(comparable(result), `${v.name}: writing checkpoints changes nothing`).toEqual(comparable(straight));
        // One per level boundary, and the last for the ended search.
        expect(copies.length, v.name).toBe(straight.stats.depth + 1);
        for (const copy of copies) {
          for (const threads of [1, 2] as const) {
            const r = await resumed(v, copy, tag, threads);
            expect(comparable(r), `${v.name} from ${copy}, ${threads} thread(s)`).toEqual(comparable(straight));
          }
        }
      }
    });
  }

  it('a search cut by --max-states resumes to the same cut', async () => {
    const v = twoPhase(5).variants[0] as Variant<unknown>;
    const options = { maxStates: 3000 };
    const straight = checkVariant(v, options);
    expect([straight.verdict, straight.incompleteReason, straight.stats.distinctStates]).toEqual(['incomplete', 'maxStates', 3000]);
    const { copies } = everyCheckpoint(v, 'cut', options);
    for (const copy of copies) {
      for (const threads of [1, 2] as const) {
        expect(comparable(await resumed(v, copy, 'cut', threads, options)), copy).toEqual(comparable(straight));
      }
    }
  });

  it('a search whose trace log went to a file saves it and resumes from it (a token ring, 93,750 states)', async () => {
    const v = configureModel(resumable, ['n=6', 'k=5']).variants.find((x) => x.name === 'ring-unfair') as Variant<unknown>;
    const straight = checkVariant(v);
    const { result, copies } = everyCheckpoint(v, 'spilled', { storage: 'disk', workDir: dir });
    expect(comparable(result)).toEqual(comparable(straight));
    // The last boundaries come after the first 65,536 states, whose parents and actions were in the file.
    for (const copy of copies.slice(-3)) {
      for (const threads of [1, 2] as const) {
        expect(comparable(await resumed(v, copy, 'spilled', threads, { storage: 'disk', workDir: dir })), copy).toEqual(
          comparable(straight),
        );
      }
    }
  });

  it('a stopped search (Ctrl-C) saves its last level boundary, and resuming it ends as the straight search', () => {
    const v = twoPhase(6).variants[0] as Variant<unknown>;
    const straight = checkVariant(v);
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    const file = join(dir, 'stopped.ckpt');
    let depthSaved = 0;
    const stopped = checkVariant(v, {
      interrupt,
      checkpoint: {
        file,
        everySeconds: 0,
        identity: 'stopped',
        onWrite: (_f, depth) => {
          depthSaved = depth;
          // Stop during the level after the one at depth 12 (2,000 states or more: polled every 256).
          if (depth === 12) Atomics.store(interrupt, 0, 1);
        },
      },
    });
    expect([stopped.verdict, stopped.incompleteReason]).toEqual(['incomplete', 'interrupted']);
    expect(depthSaved).toBe(12);
    const r = checkVariant(v, resumeOptions(file, 'stopped'));
    expect(comparable(r)).toEqual(comparable(straight));
  });
});

describe('a checkpoint is refused, with MC007, when it cannot be the search’s', () => {
  const v = twoPhase(3).variants[0] as Variant<unknown>;
  const file = join(dir, 'refused.ckpt');
  checkVariant(v, { checkpoint: { file, everySeconds: 0, identity: 'one' } });

  const refusal = (opts: SearchOptions): ModelError => {
    try {
      checkVariant(v, opts);
    } catch (e) {
      if (e instanceof ModelError) return e;
      throw e;
    }
    throw new Error('resumed without complaint');
  };

  it('written for other model files or options (another identity)', () => {
    const e = refusal(resumeOptions(file, 'two'));
    expect(e.code).toBe('MC007_CHECKPOINT_REFUSED');
    expect(e.message).toMatch(/written for other model files, another variant, other parameters or other options/);
  });

  it('damaged (its digest does not match) or not a checkpoint at all', () => {
    const damaged = join(dir, 'damaged.ckpt');
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] ^= 1;
    writeFileSync(damaged, bytes);
    expect(refusal(resumeOptions(damaged, 'one')).message).toMatch(/damaged/);
    // Cut short, as by a full disk (the rename would not have happened, but a copy may be cut).
    writeFileSync(damaged, readFileSync(file).subarray(0, 200));
    expect(refusal(resumeOptions(damaged, 'one')).message).toMatch(/damaged/);
    const other = join(dir, 'other.ckpt');
    writeFileSync(other, 'hello');
    expect(refusal(resumeOptions(other, 'one')).message).toMatch(/not a modelcheck checkpoint/);
  });

  it('a crash while writing leaves the previous checkpoint whole (the half-written one is a .tmp beside it)', () => {
    const own = join(dir, 'crash.ckpt');
    copyFileSync(file, own);
    writeFileSync(`${own}.tmp`, 'half a checkpoint');
    const r = checkVariant(v, resumeOptions(own, 'one'));
    expect(comparable(r)).toEqual(comparable(checkVariant(v)));
  });

  it('with --exact (whole states, which a checkpoint does not keep)', () => {
    expect(refusal({ exact: true, checkpoint: { file: join(dir, 'exact.ckpt'), everySeconds: 0, identity: 'x' } }).code).toBe(
      'MC007_CHECKPOINT_REFUSED',
    );
  });
});
