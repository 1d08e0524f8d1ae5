// How a ModelError reads: code, model, what went wrong, the action or property, the state
// and the trace that reached it, and a hint where there is one. No stack trace: the error is
// in the model, not in modelcheck.
import type { ChalkInstance } from 'chalk';
import type { ModelError } from '../engine/errors.ts';
import { diff, formatValue, leaves } from './diff.ts';
import { pathText } from './steps.ts';

export function formatError(e: ModelError, file: string, c: ChalkInstance): string {
  const code = e.code.slice(0, 5);
  const where = e.details.variant ? `${file} (variant ${e.details.variant})` : file;
  const out = [c.red.bold(`error ${code} in ${where}: ${e.message}`)];
  for (const line of e.details.lines ?? []) out.push(`  ${line}`);
  const trace = e.details.trace;
  if (trace && trace.length > 0) {
    out.push(`  in the state at depth ${trace.length}, reached by:`);
    // Over the variant's view where it has one, as counterexamples are: a reader's subjects and
    // fields (`source Cluster/c1 metadata.finalizers`) rather than every raw field of the state.
    const viewed = trace.every((step) => step.view !== undefined);
    const shown = (i: number) => (viewed ? trace[i].view : trace[i].state);
    trace.forEach((step, i) => {
      out.push(`    ${i + 1}. ${step.action ?? 'initial state'}`);
      const changes = i === 0 ? leaves(shown(0)) : diff(shown(i - 1), shown(i));
      for (const ch of changes) out.push(`         ${pathText(ch, viewed)}: ${formatValue(ch.before)} -> ${formatValue(ch.after)}`);
    });
  }
  const cause = e.details.cause;
  if (cause instanceof Error && cause.stack && e.code !== 'MC001_MODEL_FILE_MISSING') {
    // Only the frames in the user's model, which name the file and line.
    const frames = cause.stack.split('\n').filter((l) => l.includes(file.replace(/^\.\//, '')));
    for (const f of frames.slice(0, 3)) out.push(c.dim(`  ${f.trim()}`));
  }
  if (e.details.hint) out.push(`  hint: ${e.details.hint}`);
  return out.join('\n');
}
