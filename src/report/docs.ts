// A model's documentation in Markdown, generated from a run: its purpose, its variants, its
// actions with their citations of the real code, each property's statement with its verdict in
// every variant, and every counterexample as a table of changes with its sequence diagram.
// Every verdict here comes from the search; nothing is written by hand.
import type { Model } from '../engine/model.ts';
import type { PropertyStatus, VariantResult } from '../engine/result.ts';
import { violationToMermaid } from './mermaid.ts';
import { changeText, fullState, pathText, readCounterexample, type StepReading } from './steps.ts';
import { formatValue } from './diff.ts';

/** What the docs need of one variant's run; made where the search ran. */
export interface VariantDocs {
  readonly variant: string;
  readonly verdict: VariantResult['verdict'];
  readonly metExpectations: boolean;
  readonly distinctStates: number;
  readonly statesGenerated: number;
  readonly depth: number;
  readonly properties: readonly { name: string; kind: string; statement: string; status: PropertyStatus; vacuous: boolean }[];
  readonly warnings: readonly string[];
  readonly fairness: readonly string[];
  /** The Markdown of its counterexamples, one `###` section each. */
  readonly counterexamples: string;
}

/** Text for a table cell: pipes escaped, line breaks as <br>. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** A code span for a table cell (backticks inside would end it). */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

/** A heading's GitHub anchor. */
function anchor(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

function stepRow(step: StepReading, label: string): string {
  const requests = step.events
    .map((e) => (e.kind === 'request' ? `${code(`${e.from} -> ${e.to}: ${e.request}`)}<br>${code(`<- ${e.answer}`)}` : cell(e.text)))
    .join('<br>');
  const changes = step.changes.length === 0 ? '(no change)' : step.changes.map((c) => code(changeText(c, step.viewed))).join('<br>');
  return `| ${step.number} | ${code(label)} | ${requests} | ${changes} |`;
}

export function variantDocs(v: VariantResult): VariantDocs {
  const sections: string[] = [];
  for (const x of v.violations) {
    const reading = readCounterexample(x);
    const out: string[] = [];
    out.push(`### ${v.variant}: ${x.property}`, '');
    out.push(`> ${x.statement}`, '');
    if (x.loop === undefined) out.push(`Violated (${x.kind}): the shortest counterexample has ${x.trace.length} states.`, '');
    else {
      out.push(
        `Violated (${x.kind}): a lasso of ${plural(x.loop, 'step')} from an initial state to a cycle of ` +
          `${plural(x.trace.length - x.loop, 'state')} (from state ${x.loop + 1}) that repeats for ever${x.loopAction ? `, closed by ${code(x.loopAction)}` : ' (stuttering)'}.`,
        '',
      );
    }
    const initial = reading.steps[0];
    out.push('<details><summary>The initial state</summary>', '', '```');
    for (const ch of fullState(x.trace[0])) out.push(`${pathText(ch, initial.viewed)} = ${formatValue(ch.after)}`);
    out.push('```', '', '</details>', '');
    out.push('| # | step | request and answer | what changed |', '|---:|---|---|---|');
    for (const step of reading.steps.slice(1)) {
      const mark = x.loop !== undefined && step.number === x.loop + 1 ? ' (the cycle starts here)' : '';
      out.push(stepRow(step, `${step.label}${mark}`));
    }
    if (reading.closing) out.push(stepRow(reading.closing, `${reading.closing.label} (back to state ${x.loop! + 1})`));
    out.push('', '```mermaid', violationToMermaid(x), '```', '');
    sections.push(out.join('\n'));
  }
  return {
    variant: v.variant,
    verdict: v.verdict,
    metExpectations: v.metExpectations,
    distinctStates: v.stats.distinctStates,
    statesGenerated: v.stats.statesGenerated,
    depth: v.stats.depth,
    properties: v.properties.map((p) => ({ name: p.name, kind: p.kind, statement: p.statement, status: p.status, vacuous: p.vacuous })),
    warnings: v.warnings,
    fairness: v.fairness,
    counterexamples: sections.join('\n'),
  };
}

function verdictCell(status: PropertyStatus, vacuous: boolean, link: string | undefined): string {
  if (status === 'violated') return link ? `[**violated**](#${link})` : '**violated**';
  if (status === 'unknown') return 'unknown (search incomplete)';
  return vacuous ? 'holds (vacuously)' : 'holds';
}

/**
 * The whole page. `command` is how to regenerate it and `digest` what it was made from; both
 * are written in its header, so that a stale page can be told from a current one.
 */
export function modelDocs(model: Model, runs: readonly VariantDocs[], command: string, digest: string): string {
  const out: string[] = [];
  out.push(`# ${model.name}`, '');
  out.push(`<!-- Generated by \`${command}\` from inputs sha256:${digest}. Do not edit: regenerate. -->`, '');
  if (model.description) out.push(model.description, '');
  out.push(
    'Every verdict, count and trace on this page comes from a complete run of the checker; the ' +
      'page is regenerated, never edited, and CI fails when it is older than the model or the checker.',
    '',
  );

  out.push('## Variants', '');
  out.push('| variant | what it checks | distinct states | generated | depth | verdict |', '|---|---|---:|---:|---:|---|');
  for (const v of model.variants) {
    const r = runs.find((x) => x.variant === v.name)!;
    const verdict = `${r.verdict}${r.metExpectations ? ' (as expected)' : ' (**not as expected**)'}`;
    out.push(`| \`${v.name}\` | ${cell(v.description ?? '')} | ${num(r.distinctStates)} | ${num(r.statesGenerated)} | ${r.depth} | ${verdict} |`);
  }
  out.push('');
  for (const v of model.variants) {
    const r = runs.find((x) => x.variant === v.name)!;
    const notes = [...(v.assumptions ?? []).map((a) => `Assumes: ${a}`), ...r.warnings.map((w) => `Warning: ${w}`)];
    if (notes.length === 0) continue;
    out.push(`\`${v.name}\`:`, '', ...notes.map((n) => `- ${n}`), '');
  }
  const fairness = runs.find((r) => r.fairness.length > 0)?.fairness;
  if (fairness) out.push('Liveness is checked under this fairness:', '', ...fairness.map((f) => `- ${f}`), '');

  out.push('## Actions', '');
  out.push('Each step of the model, and where it comes from in the real code.', '');
  out.push('| action | in the real code |', '|---|---|');
  const seen = new Set<string>();
  for (const v of model.variants) {
    for (const a of v.actions) {
      if (seen.has(a.name)) continue;
      seen.add(a.name);
      out.push(`| \`${a.name}\` | ${cell(a.doc ?? '')} |`);
    }
  }
  out.push('');

  out.push('## Properties', '');
  const names: { name: string; kind: string; statement: string }[] = [];
  for (const r of runs) for (const p of r.properties) if (!names.some((n) => n.name === p.name)) names.push(p);
  out.push(`| property | kind | statement | ${runs.map((r) => `\`${r.variant}\``).join(' | ')} |`);
  out.push(`|---|---|---|${runs.map(() => '---').join('|')}|`);
  for (const p of names) {
    const cells = runs.map((r) => {
      const q = r.properties.find((x) => x.name === p.name);
      return q ? verdictCell(q.status, q.vacuous, q.status === 'violated' ? anchor(`${r.variant}: ${p.name}`) : undefined) : '';
    });
    out.push(`| \`${p.name}\` | ${p.kind} | ${cell(p.statement)} | ${cells.join(' | ')} |`);
  }
  out.push('');

  out.push('## Counterexamples', '');
  out.push(
    'Each is the shortest the breadth-first search found (for a liveness property, a lasso with a ' +
      'shortest prefix). The table shows each step, the request it sent and the answer, and what changed; ' +
      'the diagram shows who talked to whom.',
    '',
  );
  for (const r of runs) if (r.counterexamples) out.push(r.counterexamples);
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
