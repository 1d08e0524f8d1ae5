// The explorer's searches, kept in the cache directory so that a restarted server offers the
// counterexamples an earlier one found (the move model's v1.9.3 takes a minute and a half to
// search). Kept by the digest of the model: its files and every local module they import,
// modelcheck's own sources and the pinned packages (typecheckCache.ts's key, which changes when
// anything that could change a search's answer does), and its parameters. A search still
// running is written as each counterexample comes, so a server killed mid-search keeps what it
// had found; it is offered as stopped. Any error reading or writing is a cache miss.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Run } from '../explore/counterexamples.ts';
import { cacheDir } from './cacheDir.ts';
import { typecheckKey } from './typecheckCache.ts';
import { writeWhole } from './wholeFile.ts';

/** Bump when what is stored changes. */
const FORMAT = 1;

interface Stored {
  readonly format: number;
  readonly runs: { [variant: string]: Run };
}

export class KeptSearches {
  private readonly file: string;
  /** The runs kept when this server started. */
  private readonly runs: { [variant: string]: Run };

  /** The searches kept for `model` (the file as given) with `params`. */
  constructor(model: string, params: readonly string[]) {
    const key = createHash('sha256')
      .update(`${typecheckKey(model)}\0${params.join('\0')}`)
      .digest('hex')
      .slice(0, 32);
    this.file = join(cacheDir(), `explore-${key}.json`);
    this.runs = read(this.file);
  }

  /** The kept run of each variant; one that was running when its server ended is stopped. */
  kept(): Map<string, Run> {
    const out = new Map<string, Run>();
    for (const [variant, run] of Object.entries(this.runs)) {
      const stopped = run.status === 'running';
      out.set(variant, {
        ...run,
        status: stopped ? 'cancelled' : run.status,
        ...(stopped ? { summary: 'stopped when the server that ran it ended' } : {}),
        progress: undefined,
        kept: true,
      });
    }
    return out;
  }

  /**
   * Keeps `run` as it is now (written whole or not at all), with the other variants' as the file
   * has them now (another server for this model may have written some). A run not yet ended is
   * dated with the time it was last kept.
   */
  store(variant: string, run: Run): void {
    const runs = { ...read(this.file), [variant]: { ...run, progress: undefined, ended: run.ended ?? new Date().toISOString() } };
    try {
      writeWhole(this.file, JSON.stringify({ format: FORMAT, runs } satisfies Stored));
    } catch {
      // Not kept: a restarted server searches again.
    }
  }
}

function read(file: string): { [variant: string]: Run } {
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Stored;
    if (stored.format !== FORMAT || typeof stored.runs !== 'object' || stored.runs === null) return {};
    return stored.runs;
  } catch {
    return {};
  }
}
