// Runs the CLI in-process and captures what it prints, as a user would see it without colour.
import { runCli as run } from '../../src/cli/main.ts';

export interface CliRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI, with --workers 1 unless the arguments name a thread count. Unless `typecheck` is set, with --no-typecheck: `npm test` type-checks every
 * model and fixture with tsc first, and the compiler's seconds per run would add minutes.
 * badModels.test.ts and cli.test.ts test the type check itself.
 */
export async function runCli(argv: readonly string[], { typecheck = false } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  // (Those commands are given neither flag: docs, explore, conform, shard and merge run no type
  // check, and plan's tests pass --no-typecheck where they want it; docs and shard take --workers
  // where a test gives it, else the cores, as a pod's shard does.)
  const command = ['docs', 'explore', 'conform', 'plan', 'shard', 'merge'].includes(argv[0]);
  const withTypecheck = typecheck || command ? argv : [...argv, '--no-typecheck'];
  // One thread unless the test says otherwise: vitest already runs two test files at once, and
  // splitting each search too would oversubscribe the cores (the split search's own tests,
  // test/e2e/determinism.test.ts and test/engine/parallel.test.ts, pass --workers).
  // MODELCHECK_TEST_WORKERS=N (npm run test:workers) runs every such search on N threads
  // instead: the results must not depend on it.
  const workers = process.env.MODELCHECK_TEST_WORKERS ?? '1';
  const args = command || argv.includes('--workers') ? withTypecheck : [...withTypecheck, '--workers', workers];
  const exitCode = await run(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    colorOut: false,
    stderrIsTty: false,
  });
  return { exitCode, stdout, stderr };
}

/** The action of each step of the named violation's trace, from a --json run. */
export function traceActions(json: unknown, variant: string, property: string): (string | null)[] {
  const doc = json as { variants: { name: string; violations: { property: string; trace: { action: string | null }[] }[] }[] };
  const v = doc.variants.find((x) => x.name === variant);
  const x = v?.violations.find((y) => y.property === property);
  if (!x) throw new Error(`no violation of ${property} in variant ${variant}`);
  return x.trace.map((s) => s.action);
}
