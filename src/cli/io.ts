// What the command line reads and writes, handed in by bin/modelcheck.js (or a test): the CLI's
// modules touch process only through this.
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stdout is a terminal that takes colour. */
  readonly colorOut: boolean;
  /** Whether stderr is a terminal (progress is then updated in place). */
  readonly stderrIsTty: boolean;
  /**
   * Calls `handler` when the user asks the run to stop (Ctrl-C); returns a function that stops
   * listening. Absent in tests that do not need it.
   */
  readonly onInterrupt?: (handler: () => void) => () => void;
  /**
   * Calls `handler` with each key the user presses (a terminal, read key by key: 'r', 'q', and
   * '' for Enter) or each line typed (a pipe, trimmed); returns a function that stops listening.
   * Absent where there is no input to read (--watch reads its keys through it).
   */
  readonly onInput?: (handler: (key: string) => void) => () => void;
  /**
   * Calls `handler` once the process that started this one has ended (npx killed: its child is
   * not told, and would serve on); returns a function that stops watching. Absent in tests.
   */
  readonly onOrphaned?: (handler: () => void) => () => void;
}
