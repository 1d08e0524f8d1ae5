// The one mapping from a failure to what the user reads and the exit status, for every command:
// a fault of the model's (ModelError, here or in a worker thread) is exit 2 with the error's
// text; a worker that ran out of memory is exit 3 (incomplete, nothing proved); anything else is
// a bug in modelcheck itself, thrown on for bin/modelcheck.js to print with its stack. A command
// says first what only it knows (a stale docs record, a port in use).
import type { ChalkInstance } from 'chalk';
import { ModelError } from '../engine/errors.ts';
import { formatError } from '../report/errorText.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { CliIo } from './io.ts';
import { WorkerModelError, WorkerOutOfMemory } from './workerPool.ts';

/** Reports `e` on stderr and gives its exit status; throws it on when it is not a user's failure. `file`: the model file (or checkpoint directory) errors are read against. */
export function exitForFailure(e: unknown, io: CliIo, file: string, chalk: ChalkInstance): ExitCode {
  if (e instanceof ModelError) {
    io.stderr(`${formatError(e, file, chalk)}\n`);
    return EXIT.ERROR;
  }
  if (e instanceof WorkerModelError) {
    io.stderr(`${e.text}\n`);
    return EXIT.ERROR;
  }
  if (e instanceof WorkerOutOfMemory) {
    io.stderr(
      `modelcheck: INCOMPLETE: ${e.message} before it could stop cleanly; nothing is proved.\n` +
        '  Bound the search (--max-states, --max-depth, --max-memory), or check fewer variants at once (--workers): each has an equal share of the memory.\n',
    );
    return EXIT.INCOMPLETE;
  }
  throw e; // a bug in modelcheck itself: bin/modelcheck.js prints it with its stack
}
