// A checkpoint directory (--checkpoint DIR): manifest.json says what run the checkpoints are
// of (the model file, the arguments that decide its results, and a digest of every file that
// shapes its states: the model's modules and modelcheck's own sources, comments aside), and
// variants/ holds one checkpoint file per variant (src/engine/search/checkpoint.ts). `modelcheck
// resume DIR` runs the same command again with --resume DIR; a run resumed against files or
// arguments other than the manifest's is refused, saying what differs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CheckpointOptions } from '../engine/search/checkpoint.ts';
import { ModelError } from '../engine/errors.ts';
import { inputDifferences, searchInputs, type SearchInputs } from './sourceDigests.ts';
import { writeWhole } from './wholeFile.ts';

const MANIFEST = 'manifest.json';
const FORMAT = 1;

export interface Manifest extends SearchInputs {
  readonly format: number;
  /** The model file, absolute. */
  readonly model: string;
  /** The arguments that decide the results (--variant, --param, --matrix, bounds, --no-symmetry), as typed. */
  readonly args: readonly string[];
}

/** What --checkpoint and --resume set up: each variant's checkpoint options. */
export interface CheckpointPlan {
  readonly dir: string;
  readonly forVariant: (variant: string) => CheckpointOptions;
}

function manifestNow(modelFile: string, args: readonly string[]): Manifest {
  return { format: FORMAT, model: resolve(modelFile), args: [...args], ...searchInputs(modelFile) };
}

function identityOf(m: Manifest): string {
  return createHash('sha256')
    .update(JSON.stringify([m.format, m.model, m.args, m.files, m.dependencies]))
    .digest('hex');
}

function refused(dir: string, message: string, more: { lines?: string[]; hint?: string } = {}): ModelError {
  return new ModelError('MC007_CHECKPOINT_REFUSED', message, { model: dir, ...more });
}

/** The manifest of checkpoint directory `dir`, or a clear error. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) {
    throw refused(dir, `${dir} holds no checkpoint (no ${MANIFEST})`, { hint: 'name the directory given to --checkpoint' });
  }
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (e) {
    throw refused(dir, `${path} cannot be read: ${(e as Error).message}`);
  }
  if (m.format !== FORMAT) throw refused(dir, `${path} is of format ${m.format}; this modelcheck reads format ${FORMAT}`);
  return m;
}

/**
 * Sets up checkpoints in `dir` for a run of `modelFile` with result arguments `args`: a new
 * directory (refused if it holds a checkpoint already), or, with `resume`, one whose manifest
 * must be this run's.
 */
export function planCheckpoints(
  dir: string,
  modelFile: string,
  args: readonly string[],
  resume: boolean,
  everySeconds: number,
): CheckpointPlan {
  const now = manifestNow(modelFile, args);
  if (resume) {
    const then = readManifest(dir);
    const lines: string[] = [];
    if (then.model !== now.model) lines.push(`the model file is ${now.model}; the checkpoint is of ${then.model}`);
    if (JSON.stringify(then.args) !== JSON.stringify(now.args)) {
      lines.push(`the arguments are "${now.args.join(' ')}"; the checkpoint's were "${then.args.join(' ')}"`);
    }
    lines.push(...inputDifferences(then.files, now.files, resolve(now.model, '..')));
    for (const [d, v] of Object.entries(now.dependencies)) {
      if (then.dependencies[d] !== v) lines.push(`${d} is now ${v} (was ${then.dependencies[d]})`);
    }
    if (lines.length > 0) {
      throw refused(dir, `the checkpoint in ${dir} is of another run; resuming it here would not give that run's results`, {
        lines,
        hint: 'resume with the files and arguments it was written with (modelcheck resume DIR takes the arguments from it), or start afresh in another directory',
      });
    }
  } else {
    if (existsSync(join(dir, MANIFEST))) {
      throw refused(dir, `${dir} holds a checkpoint already`, {
        hint: `resume it (modelcheck resume ${dir}), or give --checkpoint another directory, or remove this one`,
      });
    }
    mkdirSync(join(dir, 'variants'), { recursive: true });
    writeWhole(join(dir, MANIFEST), `${JSON.stringify(now, null, 2)}\n`);
  }
  const identity = identityOf(now);
  return {
    dir,
    forVariant: (variant) => ({
      file: join(dir, 'variants', variantFileName(variant)),
      everySeconds,
      identity: `${identity}:${variant}`,
      resume,
    }),
  };
}

/** A file name for a variant's checkpoint: its name made safe, and a digest so that two names never meet. */
function variantFileName(variant: string): string {
  const safe = variant.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${safe}-${createHash('sha256').update(variant).digest('hex').slice(0, 8)}.ckpt`;
}
