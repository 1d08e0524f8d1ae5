// The human-readable report: per variant a header, the verdict, the statistics, the properties
// with their statements and verdicts, and for each violation its statement and its trace, step
// by step, each step showing only what changed. Colour comes in through a chalk instance so
// that the caller decides whether there is any.
import type { ChalkInstance } from 'chalk';
import type { ModelResult, PropertyResult, SimulationFacts, VariantResult, Violation } from '../engine/result.ts';
import { formatValue, type Change } from './diff.ts';
import { fairnessClauses } from './fairnessText.ts';
import { fullState, initialDifference, pathText, readCounterexample, requestText, type StepReading } from './steps.ts';

export interface TextOptions {
  readonly chalk: ChalkInstance;
  /** `changes` (the default): each step shows what changed; `full`: whole states. */
  readonly trace?: 'changes' | 'full';
  /** Print the per-action coverage table. */
  readonly coverage?: boolean;
}

/** The facts of a variant's result that the summary and the exit status need. */
export interface VariantSummary {
  readonly variant: string;
  readonly verdict: VariantResult['verdict'];
  readonly incompleteReason?: VariantResult['incompleteReason'];
  readonly violated: readonly string[];
  readonly expectedViolations: readonly string[];
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly depth: number;
  /** Every property's verdict, in the variant's order (for the matrix table). */
  readonly properties: readonly { readonly name: string; readonly status: PropertyResult['status']; readonly vacuous: boolean }[];
}

export function summarize(v: VariantResult): VariantSummary {
  return {
    variant: v.variant,
    verdict: v.verdict,
    incompleteReason: v.incompleteReason,
    violated: v.violations.map((x) => x.property),
    expectedViolations: v.expectedViolations,
    metExpectations: v.metExpectations,
    distinctStates: v.stats.distinctStates,
    depth: v.stats.depth,
    properties: v.properties.map((p) => ({ name: p.name, status: p.status, vacuous: p.vacuous })),
  };
}

/** `parameters`: the model's parameter values, when the run set some (--param). */
export function formatModelHeader(
  model: string,
  description: string | undefined,
  o: TextOptions,
  parameters?: Readonly<Record<string, number>>,
): string {
  const out: string[] = [o.chalk.bold(`model ${model}`)];
  if (description) out.push(wrap(description, '  '));
  if (parameters)
    out.push(
      `  parameters: ${Object.entries(parameters)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ')}`,
    );
  return out.join('\n');
}

export function formatModelResult(r: ModelResult, o: TextOptions): string {
  return [
    formatModelHeader(r.model, r.description, o),
    ...r.variants.flatMap((v) => ['', formatVariant(v, o)]),
    '',
    formatSummary(r.variants.map(summarize), o),
  ].join('\n');
}

export function formatVariant(v: VariantResult, o: TextOptions): string {
  const c = o.chalk;
  const out: string[] = [];
  out.push(c.bold.underline(`variant ${v.variant}`));
  if (v.description) out.push(wrap(v.description, '  '));
  for (const a of v.assumptions) out.push(wrap(`assumes: ${a}`, '  '));
  out.push(`  verdict: ${verdictText(v, o)}`);
  out.push(`  checked: ${checkedText(v)}`);
  const limits = [
    v.bounds.maxStates !== undefined ? `at most ${num(v.bounds.maxStates)} distinct states` : '',
    v.bounds.maxDepth !== undefined ? `depth at most ${v.bounds.maxDepth}` : '',
    v.bounds.timeoutSeconds !== undefined ? `at most ${v.bounds.timeoutSeconds} s` : '',
    v.bounds.maxMemoryMiB !== undefined ? `at most ${num(v.bounds.maxMemoryMiB)} MiB of memory` : '',
    v.bounds.stateConstraint ? "the variant's state constraint (states outside it checked, not explored)" : '',
  ].filter(Boolean);
  if (v.simulation) {
    const found = Object.entries(v.simulation.foundIn).map(([p, run]) => `${p} in run ${num(run)}`);
    out.push(`  simulation: ${simulationText(v.simulation)}${found.length > 0 ? `; shortest violation found of ${found.join(', ')}` : ''}`);
    if (limits.length > 0) out.push(`  bounds: ${limits.join(', ')}`);
  } else {
    out.push(`  bounds: ${limits.length > 0 ? limits.join(', ') : 'none: every reachable state'}`);
  }
  const hasLiveness = v.properties.some((p) => p.kind === 'liveness');
  if (v.fairness.length > 0) {
    out.push('  fairness:');
    for (const f of v.fairness) out.push(wrap(f, '    '));
  } else {
    out.push(`  fairness: none${hasLiveness ? '' : ' (safety properties only)'}`);
  }
  for (const w of v.warnings) out.push(c.yellow(wrap(`warning: ${w}`, '  ')));
  const s = v.stats;
  out.push(
    `  ${num(s.distinctStates)} distinct states, ${num(s.statesGenerated)} generated, depth ${s.depth}` +
      `, ${s.seconds.toFixed(2)} s (${num(Math.round(s.statesPerSecond))} distinct states/s` +
      `${s.threads && s.threads.used > 1 ? `, ${s.threads.used} threads` : ''})`,
  );
  if (s.threads?.why) out.push(c.dim(wrap(`one thread: ${s.threads.why}`, '  ')));
  const f = s.frontier;
  if (f && f.encodedStates > 0) {
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    out.push(
      `  frontier: ${num(f.encodedStates)} states kept as bytes (${mib(f.encodedBytes)})` +
        (f.spilledBytes > 0 ? `, ${mib(f.spilledBytes)} spilled to disk` : ''),
    );
  }
  if (s.livenessSeconds !== undefined) {
    const mb = s.graphBytes !== undefined ? `, state graph ${(s.graphBytes / 2 ** 20).toFixed(0)} MiB` : '';
    out.push(`  liveness phase: ${s.livenessSeconds.toFixed(2)} s${mb}`);
  }
  if (s.symmetry) {
    out.push(
      `  symmetry ${s.symmetry.name} (${num(s.symmetry.renamings)} renamings): ${num(s.distinctStates)} distinct states up to renaming, ` +
        `standing for ${num(s.symmetry.fullStates)} states`,
    );
  }
  if (s.exact) {
    out.push(
      `  exact: states compared by their full encodings (${(s.exact.bytes / 2 ** 20).toFixed(0)} MiB), so no fingerprint collision can merge two; ` +
        `${num(s.exact.collisions)} fingerprint collision${s.exact.collisions === 1 ? '' : 's'} met and kept apart`,
    );
  } else {
    out.push(`  fingerprint collision probability (optimistic, as TLC computes it): ${s.collisionProbability.toExponential(1)}`);
  }
  out.push('  properties:');
  const width = Math.max(...v.properties.map((p) => p.name.length));
  for (const p of v.properties) out.push(`    ${propertyLine(p, width, o)}`);
  if (o.coverage) {
    out.push('  coverage (successors produced / new distinct states):');
    const aw = Math.max(...s.coverage.map((x) => x.action.length));
    for (const x of s.coverage) {
      const line = `    ${x.action.padEnd(aw)}  ${num(x.enabled).padStart(10)}  ${num(x.newStates).padStart(10)}`;
      out.push(x.enabled === 0 ? c.yellow(`${line}  never enabled`) : line);
    }
    const premised = v.properties.filter((p) => p.premiseStates !== undefined && p.status === 'holds');
    if (premised.length > 0) {
      out.push('  premises (reachable states where each property had something to check):');
      const pw = Math.max(...premised.map((p) => p.name.length));
      for (const p of premised) {
        const what = p.kind === 'settled' ? 'settled states' : p.kind === 'liveness' ? 'states where its left side held' : 'states';
        const line = `    ${p.name.padEnd(pw)}  ${num(p.premiseStates!).padStart(10)}  ${what}`;
        out.push(p.vacuous ? c.yellow(`${line}  vacuous`) : line);
      }
    }
  }
  // The first counterexample prints its initial state whole; the others say how theirs differs
  // from it (often not at all), since a Kubernetes model's initial state runs to a hundred lines.
  const first = v.violations[0];
  for (const x of v.violations) {
    const earlier = x === first || o.trace === 'full' ? undefined : { property: first.property, step: first.trace[0] };
    out.push('', formatViolation(x, o, v.simulation !== undefined, earlier));
  }
  return out.join('\n');
}

function checkedText(v: VariantResult): string {
  const count = (kind: string) => v.properties.filter((p) => p.kind === kind).length;
  const counted = (kind: string, one: string, many: string) => `${count(kind)} ${count(kind) === 1 ? one : many}`;
  const parts = [
    counted('invariant', 'invariant', 'invariants'),
    counted('action', 'action property', 'action properties'),
    counted('settled', 'settled-state invariant', 'settled-state invariants'),
    counted('liveness', 'liveness property', 'liveness properties'),
    v.checkedDeadlock ? 'deadlock' : 'no deadlock check (the model turns it off)',
  ];
  return parts.join(', ');
}

function verdictText(v: VariantResult, o: TextOptions): string {
  const c = o.chalk;
  const expected = v.expectedViolations.length > 0 ? ` (expected: ${v.expectedViolations.join(', ')})` : '';
  if (v.verdict === 'incomplete') {
    return c.yellow(`INCOMPLETE: ${stoppedText(v)}; nothing is proved`);
  }
  const met = v.metExpectations ? c.green('expectations met') : c.red('expectations NOT met');
  if (v.verdict === 'proved') {
    const where = v.properties.some((p) => p.kind === 'liveness')
      ? 'in every reachable state and on every fair behaviour'
      : 'in every reachable state';
    return `${c.green('PROVED')}: every property holds ${where}; ${met}${expected}`;
  }
  const partial = v.incompleteReason ? c.yellow(` (search incomplete: ${stoppedText(v)}; other properties unknown)`) : '';
  return `${c.red('VIOLATED')}: ${v.violations.map((x) => x.property).join(', ')}; ${met}${expected}${partial}`;
}

/** Why an incomplete search stopped, for the verdict line. */
export function stoppedText(v: Pick<VariantResult, 'incompleteReason' | 'bounds' | 'simulation'>): string {
  switch (v.incompleteReason) {
    case 'maxDepth':
      return 'the search stopped at its depth limit';
    case 'maxStates':
      return 'the search stopped at its state limit';
    case 'timeout':
      return `the search stopped at its time limit (${v.bounds.timeoutSeconds} s)`;
    case 'memory':
      return v.bounds.maxMemoryMiB !== undefined
        ? `the search stopped at its memory ceiling (${num(v.bounds.maxMemoryMiB)} MiB) or with the JavaScript heap nearly full`
        : 'the search stopped with its JavaScript heap nearly full (bound the search, or check fewer variants at once with --workers: each has a share of the memory)';
    case 'interrupted':
      return 'the search was interrupted (Ctrl-C)';
    case 'simulation': {
      const sim = v.simulation;
      return sim
        ? `a random simulation (${simulationText(sim)}), not a search of every state`
        : 'a random simulation, not a search of every state';
    }
    default:
      return 'the search stopped early';
  }
}

function simulationText(sim: SimulationFacts): string {
  const done = sim.runsDone < sim.runs ? ` (${num(sim.runsDone)} finished)` : '';
  return `${num(sim.runs)} runs${done} of at most ${num(sim.depth)} states, seed ${sim.seed}`;
}

function propertyLine(p: PropertyResult, width: number, o: TextOptions): string {
  const c = o.chalk;
  const name = p.name.padEnd(width);
  const mark = p.status === 'holds' ? c.green('holds   ') : p.status === 'violated' ? c.red('violated') : c.yellow('unknown ');
  const exp = p.expectedViolated ? c.dim(' (expected to be violated)') : '';
  const why = p.vacuity === 'noFairBehaviour' ? 'no fair behaviour stays inside the state constraint' : 'its premise never held';
  const vacuous = p.vacuous ? c.yellow(` (vacuously: ${why})`) : '';
  return `${name}  ${mark}  ${c.dim(`[${p.kind}]`)} ${p.statement}${exp}${vacuous}`;
}

/**
 * `simulated`: the trace comes from a random run, so it need not be a shortest one. `earlier`: a
 * counterexample printed above this one, whose initial state this one's is shown against.
 */
export function formatViolation(
  x: Violation,
  o: TextOptions,
  simulated = false,
  earlier?: { readonly property: string; readonly step: Violation['trace'][number] },
): string {
  const c = o.chalk;
  const out: string[] = [];
  out.push(c.red.bold(`  ${x.property} is violated`) + c.dim(` [${x.kind}]`));
  out.push(wrap(`"${x.statement}"`, '    '));
  if (x.loop === undefined) {
    out.push(
      simulated
        ? `    counterexample from a random run (not necessarily a shortest one), ${x.trace.length} states:`
        : `    shortest counterexample, ${x.trace.length} state${x.trace.length === 1 ? '' : 's'}:`,
    );
  } else {
    const cycle = x.trace.length - x.loop;
    out.push(
      `    counterexample: a lasso, ${x.loop} step${x.loop === 1 ? '' : 's'} from an initial state to a cycle of ${cycle} state${cycle === 1 ? '' : 's'} repeated for ever:`,
    );
  }
  const reading = readCounterexample(x);
  reading.steps.forEach((step, i) => {
    const n = `${step.number}.`.padStart(5);
    const mark = x.loop === i ? c.magenta('   ◀ the cycle starts at this state') : '';
    if (step.label === null && earlier !== undefined) {
      const differences = initialDifference(earlier.step, x.trace[i]);
      const as = `as in the counterexample to ${earlier.property} above`;
      out.push(`  ${n} ${c.cyan('initial state')}${mark}: ${differences.length === 0 ? as : `${as}, except`}`);
      for (const ch of differences) out.push(`        ${formatChange(ch, step.viewed, o)}`);
      return;
    }
    out.push(`  ${n} ${c.cyan(step.label ?? 'initial state')}${mark}`);
    if (step.label === null || o.trace === 'full') {
      for (const ch of fullState(x.trace[i])) out.push(`        ${pathText(ch, step.viewed)} = ${formatValue(ch.after)}`);
      if (step.label !== null) out.push(...eventLines(step, o));
      return;
    }
    out.push(...stepLines(step, o));
  });
  if (x.loop !== undefined) {
    const fair = x.cycleFairness && fairnessClauses(x.cycleFairness, reading.closing === undefined);
    if (reading.closing === undefined) {
      const why = fair === undefined ? 'no fairness is declared, so a behaviour may stop in any state' : `fairness allows it: ${fair}`;
      out.push(c.magenta(wrap(`↺ state ${x.trace.length} repeats for ever (stuttering); ${why}`, '  ')));
    } else {
      out.push(
        c.magenta(
          `  ↺ ${reading.closing.label} leads back to state ${x.loop + 1}; states ${x.loop + 1} to ${x.trace.length} repeat for ever`,
        ),
      );
      if (o.trace !== 'full') out.push(...stepLines(reading.closing, o));
      if (fair !== undefined) out.push(c.magenta(wrap(`fairness allows the cycle: ${fair}`, '    ')));
    }
  }
  if (x.kind === 'deadlock') out.push(c.dim(wrap(`hint: ${DEADLOCK_HINT}`, '    ')));
  return out.join('\n');
}

/**
 * Said under every deadlock: most models that meet one by surprise are systems that come to rest
 * (a Kubernetes world where every cache and controller has caught up, a protocol that has
 * finished), for which a state with nothing left to do is the goal, not an error.
 */
const DEADLOCK_HINT =
  'a state with no step left is reported as a deadlock. If it is where the system is meant to come to rest ' +
  '(a Kubernetes world whose caches and controllers have all caught up, a protocol that has finished), set ' +
  'checkDeadlock: false in the variant and state what such a state must satisfy with settledInvariant ' +
  '(docs/guide.md, "Deadlock").';

/** A step's requests with their answers, its notes, then what changed. */
function stepLines(step: StepReading, o: TextOptions): string[] {
  const c = o.chalk;
  const out = eventLines(step, o);
  if (step.changes.length === 0) out.push(c.dim('        (no change: a stuttering step)'));
  for (const ch of step.changes) out.push(`        ${formatChange(ch, step.viewed, o)}`);
  return out;
}

function eventLines(step: StepReading, o: TextOptions): string[] {
  const c = o.chalk;
  const out: string[] = [];
  for (const e of step.events) {
    if (e.kind === 'request') {
      out.push(`        ${c.blue(requestText(e))}`);
      out.push(`          ${e.ok ? c.green(`<- ${e.answer}`) : c.red(`<- ${e.answer}`)}`);
    } else out.push(c.dim(`        (${e.text})`));
  }
  return out;
}

function formatChange(ch: Change, viewed: boolean, o: TextOptions): string {
  const c = o.chalk;
  const path = pathText(ch, viewed);
  if (ch.listEdit) {
    const parts = [
      ...ch.listEdit.shifted.map((x) => c.red(`took ${formatValue(x)}`)),
      ...ch.listEdit.pushed.map((x) => c.green(`appended ${formatValue(x)}`)),
    ];
    return `${path}: ${parts.join('; ')}`;
  }
  if (ch.before === undefined) return `${path}: ${c.green(`added ${formatValue(ch.after)}`)}`;
  if (ch.after === undefined) return `${path}: ${c.red(`removed ${formatValue(ch.before)}`)}`;
  return `${path}: ${formatValue(ch.before)} -> ${c.bold(formatValue(ch.after))}`;
}

export function formatSummary(variants: readonly VariantSummary[], o: TextOptions): string {
  const c = o.chalk;
  const lines = [c.bold('summary')];
  const width = Math.max(...variants.map((x) => x.variant.length));
  for (const v of variants) {
    const status = v.verdict === 'incomplete' ? c.yellow('incomplete') : v.verdict === 'proved' ? c.green('proved  ') : c.red('violated');
    const met = v.verdict === 'incomplete' ? '' : v.metExpectations ? '  expectations met' : c.red('  expectations NOT met');
    const violated = v.violated.length > 0 ? `  violated: ${v.violated.join(', ')}` : '';
    lines.push(
      `  ${v.variant.padEnd(width)}  ${status}  ${num(v.distinctStates).padStart(11)} states, depth ${String(v.depth).padStart(3)}${met}${violated}`,
    );
  }
  return lines.join('\n');
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

function wrap(text: string, indent: string, width = 100): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = indent;
  for (const w of words) {
    if (line.length + w.length + 1 > width && line.trim() !== '') {
      lines.push(line);
      line = `${indent}  ${w}`;
    } else line = line.trim() === '' ? `${line}${w}` : `${line} ${w}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** One row of the matrix table: a variant's values on the dimensions and its result. */
export interface MatrixLine {
  readonly values: readonly string[];
  readonly summary: VariantSummary;
}

/**
 * The variant matrix as a table: a row per combination with its values, its state count and
 * the verdict of every property (numbered columns, named in a legend below), each verdict read
 * from that row's result.
 */
export function formatMatrix(
  matrix: { readonly name: string; readonly description?: string; readonly dimensions: readonly string[] },
  lines: readonly MatrixLine[],
  o: TextOptions,
): string {
  const c = o.chalk;
  const properties = matrixProperties(lines);
  const cell = (s: VariantSummary, name: string): { text: string; color: (x: string) => string } => {
    const p = s.properties.find((x) => x.name === name);
    if (p === undefined) return { text: '-', color: (x) => x };
    if (p.status === 'violated') return { text: 'VIOLATED', color: c.red };
    if (p.status === 'unknown') return { text: 'unknown', color: c.yellow };
    return { text: p.vacuous ? 'vacuous' : 'holds', color: p.vacuous ? c.yellow : c.green };
  };
  const header = [...matrix.dimensions, 'states', 'verdict', ...properties.map((_, i) => `[${i + 1}]`)];
  const rows = lines.map((l) => [
    ...l.values,
    num(l.summary.distinctStates),
    l.summary.verdict,
    ...properties.map((name) => cell(l.summary, name).text),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const dims = matrix.dimensions.length;
  const pad = (text: string, i: number) => (i === dims ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const out = [c.bold(`variant matrix: ${matrix.name}`), ...(matrix.description ? [wrap(matrix.description, '  ')] : []), ''];
  out.push(`  ${header.map(pad).join('  ')}`.trimEnd());
  lines.forEach((l, r) => {
    const parts = rows[r].map((text, i) => {
      const padded = pad(text, i);
      if (i < dims + 2) return padded;
      return cell(l.summary, properties[i - dims - 2]).color(padded);
    });
    out.push(`  ${parts.join('  ')}`.trimEnd());
  });
  out.push('');
  for (const [i, name] of properties.entries()) out.push(`  [${i + 1}] ${name}`);
  return out.join('\n');
}

/** Every property named by any row, in the order they first appear. */
export function matrixProperties(lines: readonly MatrixLine[]): string[] {
  const names: string[] = [];
  for (const l of lines) for (const p of l.summary.properties) if (!names.includes(p.name)) names.push(p.name);
  return names;
}
