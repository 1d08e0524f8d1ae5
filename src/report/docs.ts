// A model's documentation in Markdown: its purpose, its variants, its actions with their
// citations of the real code, each property's statement with its verdict in every variant, and
// every counterexample as a table of changes with its sequence diagram. Every verdict here comes
// from a search; nothing is written by hand. A page is made either from the runs themselves
// (variantDocs, after the searches of `modelcheck docs`) or from their record (recordedDocs, for
// `docs --render` and `--check`): the record keeps what the searches found, each counterexample as
// its steps' labels, and the model replays them, so that both ways give the same page.
import { describeFairness } from '../engine/search/ledger.ts';
import { normalizeVariant, type Model, type Variant } from '../engine/model.ts';
import { reportedProperties } from '../engine/modelCalls.ts';
import type { PathReplayer } from '../engine/search/replay.ts';
import type { PropertyStatus, VariantResult, Violation } from '../engine/result.ts';
import { withViews } from '../engine/search/trace.ts';
import { violationToMermaid } from './mermaid.ts';
import { changeText, fullState, pathText, readCounterexample, type StepReading } from './steps.ts';
import { formatValue } from './diff.ts';
import { variantManifestOf, type VariantManifest } from './manifest.ts';

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
  /** What the page records of this run, for later runs to be compared with. */
  readonly manifest: VariantManifest;
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
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function stepRow(step: StepReading, label: string): string {
  const requests = step.events
    .map((e) => (e.kind === 'request' ? `${code(`${e.from} -> ${e.to}: ${e.request}`)}<br>${code(`<- ${e.answer}`)}` : cell(e.text)))
    .join('<br>');
  const changes = step.changes.length === 0 ? '(no change)' : step.changes.map((c) => code(changeText(c, step.viewed))).join('<br>');
  return `| ${step.number} | ${code(label)} | ${requests} | ${changes} |`;
}

/** A variant's docs from its run; `initialIndex` numbers a counterexample's initial state for the record. */
export function variantDocs(v: VariantResult, initialIndex: (x: Violation) => number): VariantDocs {
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
    counterexamples: counterexampleSections(v.variant, v.violations),
    manifest: variantManifestOf(v, initialIndex),
  };
}

/** Why a variant's record no longer renders: it names the variant and what failed. */
export class StaleRecord extends Error {}

/**
 * A variant's docs from its record: the results as recorded, the model's own text (statements,
 * fairness) as it is now, and each counterexample replayed from its labels. Throws StaleRecord
 * where the record does not fit the model any more (a property it does not know, a step that no
 * longer replays); a fault in the model's code is thrown as in a search.
 */
export function recordedDocs<S>(given: Variant<S>, record: VariantManifest, replayer: PathReplayer<S>): VariantDocs {
  const variant = normalizeVariant(given);
  const stale = (why: string) => new StaleRecord(`variant ${variant.name}: ${why}`);
  const reported = reportedProperties(variant, variant.checkDeadlock);
  const properties = reported.map((p) => {
    const recorded = record.properties[p.name];
    if (recorded === undefined) throw stale(`the record has no result for property ${p.name}`);
    const status = (recorded === 'vacuous' ? 'holds' : recorded) as PropertyStatus;
    return { name: p.name, kind: p.kind, statement: p.statement, status, vacuous: recorded === 'vacuous' };
  });
  for (const name of Object.keys(record.properties))
    if (!reported.some((p) => p.name === name)) throw stale(`the record has a result for ${name}, which is no property of the variant now`);
  const violations: Violation<S>[] = record.violations.map((x) => {
    const p = reported.find((q) => q.name === x.property)!;
    const replayed = replayer.replay(x.init ?? -1, x.steps, x.loopAction ?? undefined);
    if ('why' in replayed) throw stale(`the counterexample to ${x.property} no longer replays: ${replayed.why}`);
    return {
      property: p.name,
      kind: p.kind,
      statement: p.statement,
      trace: withViews(replayed.trace, variant.view),
      ...(x.loop !== null
        ? {
            loop: x.loop,
            loopAction: replayed.closing?.action ?? null,
            ...(replayed.closing ? { loopEvents: replayed.closing.events } : {}),
          }
        : {}),
    };
  });
  return {
    variant: variant.name,
    verdict: record.verdict as VariantDocs['verdict'],
    metExpectations: record.metExpectations,
    distinctStates: record.distinctStates,
    statesGenerated: record.statesGenerated,
    depth: record.depth,
    properties,
    warnings: record.warnings,
    fairness: variant.fairness.map(describeFairness),
    counterexamples: counterexampleSections(variant.name, violations as Violation[]),
    manifest: record,
  };
}

/** The Markdown of a variant's counterexamples, one `###` section each. */
function counterexampleSections(variant: string, violations: readonly Violation[]): string {
  const sections: string[] = [];
  for (const x of violations) {
    const reading = readCounterexample(x);
    const out: string[] = [];
    out.push(`### ${variant}: ${x.property}`, '');
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
  return sections.join('\n');
}

function verdictCell(status: PropertyStatus, vacuous: boolean, link: string | undefined, linkIsUrl = false): string {
  if (status === 'violated') return link ? `[**violated**](${linkIsUrl ? link : `#${link}`})` : '**violated**';
  if (status === 'unknown') return 'unknown (search incomplete)';
  return vacuous ? 'holds (vacuously)' : 'holds';
}

/** The pages of a model's documentation: the main one, and (with matrices) the matrices' one. */
export interface ModelPages {
  readonly main: string;
  /** The matrices' counterexamples, assumptions and warnings; absent for a model without matrices. */
  readonly matrices?: string;
}

function variantNotes(v: Model['variants'][number], r: VariantDocs): string[] {
  const notes = [...normalizeVariant(v).assumptions.map((a) => `Assumes: ${a}`), ...r.warnings.map((w) => `Warning: ${w}`)];
  if (notes.length === 0) return [];
  return [`\`${v.name}\`:`, '', ...notes.map((n) => `- ${n}`), ''];
}

/**
 * Where a model's pages go, and the command that writes them: `out` is the main page (by default
 * docs/<model file name>.md); the matrices' page and the record sit beside it. Part of the page
 * generator, since the names and the command are written into the pages.
 */
export function pageFiles(modelFile: string, out?: string): { main: string; matrices: string; manifest: string; command: string } {
  const main = out ?? `docs/${modelFile.replace(/^.*[\\/]/, '').replace(/\.[cm]?[jt]s$/, '')}.md`;
  return {
    main,
    matrices: main.replace(/(\.md)?$/, '.matrices.md'),
    manifest: main.replace(/(\.md)?$/, '.manifest.json'),
    command: `npx modelcheck docs ${modelFile}${out ? ` --out ${out}` : ''}`,
  };
}

/** What the pages are made of besides the runs. */
export interface PageSources {
  /** How to regenerate the pages, written in each header. */
  readonly command: string;
  /** The file that records the pages' inputs and results (`--check` reads it), named in each header. */
  readonly manifestFile: string;
  /** The matrices page's file name, for links from the main page. */
  readonly matricesFile: string;
  /** Each matrix's explanation read from its `explanationFile`, by matrix name. */
  readonly explanations: Readonly<Record<string, string>>;
}

/** The pages, from the model's declarations and its variants' runs. */
export function modelDocs(model: Model, runs: readonly VariantDocs[], sources: PageSources): ModelPages {
  const { command, manifestFile, matricesFile } = sources;
  const runOf = (name: string) => runs.find((x) => x.variant === name)!;
  const main = model.variants.filter((v) => !v.matrixOnly);
  const mainRuns = main.map((v) => runOf(v.name));
  const header = `<!-- Generated by \`${command}\`; its inputs and results are recorded in ${manifestFile}. Do not edit: regenerate. -->`;
  const out: string[] = [];
  out.push(`# ${model.name}`, '');
  out.push(header, '');
  if (model.description) out.push(model.description, '');
  out.push(
    'Every verdict, count and trace on this page comes from a complete run of the checker. The page is ' +
      'regenerated, never edited: CI fails when the model changes without a regeneration, and when a run of ' +
      'the tests finds other results than the ones recorded here.',
    '',
  );

  out.push('## Variants', '');
  out.push('| variant | what it checks | distinct states | generated | depth | verdict |', '|---|---|---:|---:|---:|---|');
  for (const v of main) out.push(variantRow(v, runOf(v.name)));
  out.push('');
  for (const v of main) out.push(...variantNotes(v, runOf(v.name)));
  const parameters = Object.entries(model.parameters ?? {});
  if (parameters.length > 0) {
    out.push('## Parameters', '');
    out.push(
      'Numbers the model is built from, like the CONSTANTS of a TLA+ spec: `--param name=value` sets one, for ' +
        'a search of another size. This page was generated with the defaults.',
      '',
    );
    out.push('| parameter | what it sets | default | range |', '|---|---|---:|---:|');
    for (const [name, p] of parameters) out.push(`| \`${name}\` | ${cell(p.description)} | ${p.default} | ${p.min} to ${p.max} |`);
    out.push('');
  }
  const fairness = runs.find((r) => r.fairness.length > 0)?.fairness;
  if (fairness) out.push('Liveness is checked under this fairness:', '', ...fairness.map((f) => `- ${f}`), '');

  out.push('## Actions', '');
  out.push('Each step of the model, and where it comes from in the real code.', '');
  out.push('| action | in the real code |', '|---|---|');
  const seen = new Set<string>();
  for (const v of model.variants) {
    for (const a of v.actions) {
      // The same action may be cited differently where a variant runs other code.
      const id = `${a.name}\0${a.doc ?? ''}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(`| \`${a.name}\` | ${cell(a.doc ?? '')} |`);
    }
  }
  out.push('');

  out.push('## Properties', '');
  const names = propertyNames(mainRuns);
  out.push(`| property | kind | statement | ${mainRuns.map((r) => `\`${r.variant}\``).join(' | ')} |`);
  out.push(`|---|---|---|${mainRuns.map(() => '---').join('|')}|`);
  for (const p of names) {
    const cells = mainRuns.map((r) => {
      const q = r.properties.find((x) => x.name === p.name);
      return q ? verdictCell(q.status, q.vacuous, q.status === 'violated' ? anchor(`${r.variant}: ${p.name}`) : undefined) : '';
    });
    out.push(`| \`${p.name}\` | ${p.kind} | ${cell(p.statement)} | ${cells.join(' | ')} |`);
  }
  out.push('');

  const matrices = model.matrices ?? [];
  const onMain = new Set(main.map((v) => v.name));
  const link = (variant: string, property: string) => `${onMain.has(variant) ? '' : matricesFile}#${anchor(`${variant}: ${property}`)}`;
  if (matrices.length > 0) {
    out.push('## Variant matrices', '');
    out.push(
      `Each row is its own complete search; its counterexamples are ${matricesFile ? `in [${matricesFile}](${matricesFile})` : 'below'} ` +
        '(or, for the variants above, further down this page).',
      '',
    );
    for (const m of matrices) {
      out.push(`### Matrix: ${m.name}`, '');
      if (m.description) out.push(m.description, '');
      const rows = m.rows.map((row) => ({ row, r: runOf(row.variant) }));
      const props = propertyNames(rows.map((x) => x.r));
      out.push(`| ${m.dimensions.join(' | ')} | variant | states | ${props.map((p) => `\`${p.name}\``).join(' | ')} |`);
      out.push(`|${m.dimensions.map(() => '---').join('|')}|---|---:|${props.map(() => '---').join('|')}|`);
      for (const { row, r } of rows) {
        const cells = props.map((p) => {
          const q = r.properties.find((x) => x.name === p.name);
          return q ? verdictCell(q.status, q.vacuous, q.status === 'violated' ? link(r.variant, p.name) : undefined, true) : '';
        });
        out.push(
          `| ${row.values.map(cell).join(' | ')} | \`${r.variant}\`${r.metExpectations ? '' : ' (**not as expected**)'} | ${num(r.distinctStates)} | ${cells.join(' | ')} |`,
        );
      }
      out.push('');
      if (m.explanation) out.push(m.explanation, '');
      const included = sources.explanations[m.name];
      if (included) out.push(included.replace(/\n+$/, ''), '');
    }
  }

  if (model.seeAlso && model.seeAlso.length > 0) {
    out.push('## See also', '');
    for (const x of model.seeAlso) out.push(`- [${x.title}](${x.href})${x.summary ? `: ${x.summary}` : ''}`);
    out.push('');
  }

  out.push('## Counterexamples', '');
  out.push(COUNTEREXAMPLES_INTRO, '');
  for (const r of mainRuns) if (r.counterexamples) out.push(r.counterexamples);
  const mainPage = `${out.join('\n').replace(/\n+$/, '')}\n`;
  if (matrices.length === 0) return { main: mainPage };

  const extra = model.variants.filter((v) => v.matrixOnly);
  const page: string[] = [`# ${model.name}: the variant matrices`, '', header, ''];
  page.push(
    "The matrix-only variants of the main page's variant matrices: what each assumes, what the search " +
      'warned of, and every counterexample. Generated with the main page; every verdict comes from a complete run.',
    '',
  );
  page.push('## Variants', '');
  page.push('| variant | what it checks | distinct states | generated | depth | verdict |', '|---|---|---:|---:|---:|---|');
  for (const v of extra) page.push(variantRow(v, runOf(v.name)));
  page.push('');
  for (const v of extra) page.push(...variantNotes(v, runOf(v.name)));
  page.push('## Counterexamples', '', COUNTEREXAMPLES_INTRO, '');
  for (const v of extra) {
    const r = runOf(v.name);
    if (r.counterexamples) page.push(r.counterexamples);
  }
  return { main: mainPage, matrices: `${page.join('\n').replace(/\n+$/, '')}\n` };
}

const COUNTEREXAMPLES_INTRO =
  'Each is the shortest the breadth-first search found (for a liveness property, a lasso with a ' +
  'shortest prefix). The table shows each step, the request it sent and the answer, and what changed; ' +
  'the diagram shows who talked to whom.';

function variantRow(v: Model['variants'][number], r: VariantDocs): string {
  const verdict = `${r.verdict}${r.metExpectations ? ' (as expected)' : ' (**not as expected**)'}`;
  return `| \`${v.name}\` | ${cell(v.description ?? '')} | ${num(r.distinctStates)} | ${num(r.statesGenerated)} | ${r.depth} | ${verdict} |`;
}

function propertyNames(runs: readonly VariantDocs[]): { name: string; kind: string; statement: string }[] {
  const names: { name: string; kind: string; statement: string }[] = [];
  for (const r of runs) for (const p of r.properties) if (!names.some((n) => n.name === p.name)) names.push(p);
  return names;
}

/**
 * The block of verdicts a README keeps of a model, between two markers: its main variants, each
 * with what it checks, its distinct states, depth and verdict (with the properties violated), as
 * the record has them. `docs` writes it where the README has the markers; `--check` compares it.
 */
export function verdictTable(model: Model, runs: readonly VariantDocs[]): string {
  const out = ['| variant | what it checks | distinct states | depth | verdict |', '|---|---|---:|---:|---|'];
  for (const v of model.variants.filter((x) => !x.matrixOnly)) {
    const r = runs.find((x) => x.variant === v.name)!;
    const violated = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    const verdict = r.verdict === 'violated' ? `violated: ${violated.join(', ')}` : r.verdict;
    out.push(`| \`${v.name}\` | ${cell(v.description ?? '')} | ${num(r.distinctStates)} | ${r.depth} | ${verdict} |`);
  }
  return out.join('\n');
}

/** The markers around a model's verdict table in a README. */
export function verdictMarkers(modelFile: string): { begin: string; end: string } {
  return {
    begin: `<!-- verdicts of ${modelFile}: rendered from its docs record by \`npx modelcheck docs ${modelFile} --render\`; do not edit -->`,
    end: `<!-- end of the verdicts of ${modelFile} -->`,
  };
}
