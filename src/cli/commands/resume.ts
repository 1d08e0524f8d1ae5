// `modelcheck resume DIR [options]`: the checkpointed command again.
import { Chalk } from 'chalk';
import { ModelError } from '../../engine/errors.ts';
import { formatError } from '../../report/errorText.ts';
import { readManifest, type Manifest } from '../checkpointDir.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import type { CliIo } from '../io.ts';
import { runCheck } from './check.ts';

/**
 * `modelcheck resume DIR [options]`: the checkpointed command again, its model and the
 * arguments that decide results taken from DIR's manifest, the other options (output, threads,
 * limits) from this command line.
 */
export async function runResume(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [dir, ...rest] = argv;
  if (dir === undefined || dir.startsWith('-')) {
    io.stderr('modelcheck: resume takes the checkpoint directory first: modelcheck resume DIR [options]\n');
    return EXIT.ERROR;
  }
  let manifest: Manifest;
  try {
    manifest = readManifest(dir);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    io.stderr(`${formatError(e, dir, new Chalk({ level: 0 }))}\n`);
    return EXIT.ERROR;
  }
  return runCheck([manifest.model, ...manifest.args, ...rest, '--resume', dir], io);
}
