// How every command line is parsed and answered when it is wrong, in one place: `--help` prints
// the command's help on stdout (exit 0); a mistake commander finds, or one `validate` throws
// (an InvalidArgumentError), prints `modelcheck <command>: <what is wrong>` and the help on
// stderr (exit 2).
import { type Command, CommanderError, type OptionValues } from 'commander';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { CliIo } from './io.ts';

export type Parsed<O> = { readonly file: string; readonly opts: O } | { readonly exit: ExitCode };

/** Parses `argv` with `cmd` (made with exitOverride and silent output); `name` is the command as a user types it. */
export function parseCommand<O extends OptionValues>(
  cmd: Command,
  argv: readonly string[],
  io: CliIo,
  name: string,
  validate?: (opts: O) => void,
): Parsed<O> {
  try {
    cmd.parse([...argv], { from: 'user' });
    const opts = cmd.opts<O>();
    validate?.(opts);
    return { file: cmd.args[0], opts };
  } catch (e) {
    if (e instanceof CommanderError && (e.code === 'commander.helpDisplayed' || e.code === 'commander.version')) {
      io.stdout(cmd.helpInformation());
      return { exit: EXIT.OK };
    }
    const message = e instanceof Error ? e.message.replace(/^error: /, '') : String(e);
    io.stderr(`${name}: ${message}\n${cmd.helpInformation()}`);
    return { exit: EXIT.ERROR };
  }
}
