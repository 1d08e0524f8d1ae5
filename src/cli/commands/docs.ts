// `modelcheck docs <model>`: runs every variant and writes the record of what the searches found
// (docs/<model>.manifest.json: counts, verdicts, warnings, each counterexample as its steps'
// labels) and the model's Markdown pages rendered from it (docs/<model>.md by default). Neither
// `--render` nor `--check` searches: they replay the record's counterexamples through the model
// as it is now and render the pages, which `--render` writes and `--check` compares with the
// files (seconds). So a change that alters no page's text needs nothing, one that alters only
// text needs `--render`, and only a change of results needs the searches again; the end-to-end
// tests, which run the variants anyway, compare each run with the record and say when
// (docs/architecture.md, "Generated documentation").
import { Command } from 'commander';
import { Chalk } from 'chalk';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkVariant } from '../../engine/search/bfs.ts';
import { ModelError } from '../../engine/errors.ts';
import type { Model, Variant } from '../../engine/model.ts';
import { modelDocs, pageFiles, recordedDocs, StaleRecord, verdictMarkers, verdictTable, type VariantDocs } from '../../report/docs.ts';
import type { DocsManifest } from '../../report/manifest.ts';
import { BUGS_PAGE, bugsPage, type BugRecord } from '../../report/bugsTable.ts';
import { PathReplayer } from '../../engine/search/replay.ts';
import { exitForFailure } from '../failure.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { positiveInt } from '../options.ts';
import { renderVariant, type RenderOptions } from '../render.ts';
import { checkInWorkers, threadPlan } from '../workerPool.ts';

/** The Markdown files the model's matrices include, as paths from the working directory. */
function explanationFiles(model: Model, modelFile: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of model.matrices ?? []) if (m.explanationFile) out.set(m.name, resolve(dirname(modelFile), m.explanationFile));
  return out;
}

function readExplanations(model: Model, modelFile: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [matrix, path] of explanationFiles(model, modelFile)) {
    if (!existsSync(path)) {
      throw new ModelError('MC109_BAD_MATRIX', `matrix ${matrix}: its explanationFile ${path} does not exist`, {
        model: model.name,
        hint: 'explanationFile is a path relative to the model file',
      });
    }
    out[matrix] = readFileSync(path, 'utf8');
  }
  return out;
}

/** The pages rendered from the model and a record: each page's path and text. */
function renderedPages(model: Model, record: DocsManifest, file: string, files: ReturnType<typeof pageFiles>): [string, string][] {
  return pagesOf(model, recordedRuns(model, record), file, files, record);
}

/** Each variant's results as the record holds them, its counterexamples replayed through the model. */
function recordedRuns(model: Model, record: DocsManifest): VariantDocs[] {
  const runs = model.variants.map((v) => {
    const recorded = record.variants[v.name];
    if (recorded === undefined) throw new StaleRecord(`variant ${v.name} has no recorded results`);
    return recordedDocs(v, recorded, new PathReplayer(v));
  });
  for (const name of Object.keys(record.variants))
    if (!model.variants.some((v) => v.name === name))
      throw new StaleRecord(`the record has results for ${name}, which is no variant of the model now`);
  return runs;
}

function pagesOf(
  model: Model,
  runs: readonly VariantDocs[],
  file: string,
  files: ReturnType<typeof pageFiles>,
  record: DocsManifest,
): [string, string][] {
  const pages = modelDocs(model, runs, {
    command: files.command,
    manifestFile: basename(files.manifest),
    matricesFile: basename(files.matrices),
    explanations: readExplanations(model, file),
  });
  const out: [string, string][] = [[files.main, pages.main]];
  if (pages.matrices !== undefined) out.push([files.matrices, pages.matrices]);
  const readme = withVerdicts(README, file, verdictTable(model, runs));
  if (readme !== undefined) out.push([README, readme]);
  if (record.reproduces !== undefined) out.push([bugsPagePath(files), bugsPage(bugRecords(files, record))]);
  return out;
}

/** Where the table of bugs goes: beside the model's page. */
function bugsPagePath(files: ReturnType<typeof pageFiles>): string {
  return join(dirname(files.main), basename(BUGS_PAGE));
}

/** Every record beside this model's that reproduces a bug, with this model's `record` in place of its file's. */
function bugRecords(files: ReturnType<typeof pageFiles>, record: DocsManifest): BugRecord[] {
  const dir = dirname(files.main) || '.';
  const out: BugRecord[] = [{ page: basename(files.main), manifest: record }];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.manifest.json') || name === basename(files.manifest)) continue;
    const other = JSON.parse(readFileSync(join(dir, name), 'utf8')) as DocsManifest;
    if (other.reproduces !== undefined) out.push({ page: name.replace(/\.manifest\.json$/, '.md'), manifest: other });
  }
  return out;
}

/** The record of the searches' results (`variants`, by name in the model's order), before it names its pages. */
function resultsRecord(model: Model, files: ReturnType<typeof pageFiles>, variants: DocsManifest['variants']): DocsManifest {
  return {
    generatedBy: files.command,
    pages: [],
    variants,
    ...(model.reproduces !== undefined ? { reproduces: model.reproduces } : {}),
  };
}

/** The record naming the model's own pages: not the README's table or the table of bugs, which others share. */
function withPages(results: DocsManifest, pages: readonly [string, string][], files: ReturnType<typeof pageFiles>): DocsManifest {
  const shared = [README, bugsPagePath(files)];
  return { ...results, pages: pages.filter(([path]) => !shared.includes(path)).map(([path]) => basename(path)) };
}

/**
 * Writes the record of `variants` (each variant's results as a docs run records them, from any
 * number of runs: modelcheck merge --docs) and the pages it renders, as `modelcheck docs` would.
 * Returns the files written.
 */
export function writeDocsRecord(model: Model, file: string, variants: DocsManifest['variants']): string[] {
  const files = pageFiles(file);
  const results = resultsRecord(model, files, variants);
  // (Replayed once: the pages rendered first only name themselves in the record.)
  const runs = recordedRuns(model, results);
  const record = withPages(results, pagesOf(model, runs, file, files, results), files);
  const pages = pagesOf(model, runs, file, files, record);
  writePages(pages);
  writeFileSync(files.manifest, `${JSON.stringify(record, null, 2)}\n`);
  return [...pages.map(([path]) => path), files.manifest];
}

/** The README of the working directory, which may keep a model's verdict table between markers. */
const README = 'README.md';

/** `path`'s text with the model's verdict table written between its markers; undefined if it has none. */
function withVerdicts(path: string, modelFile: string, table: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  const { begin, end } = verdictMarkers(modelFile);
  const from = text.indexOf(`${begin}\n`);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) return undefined;
  return `${text.slice(0, from + begin.length + 1)}${table}\n${text.slice(to)}`;
}

/** The first line where `found` differs from `expected`, as "path:line", with both lines; undefined if equal. */
function firstDifference(path: string, expected: string, found: string): string | undefined {
  if (expected === found) return undefined;
  const a = expected.split('\n');
  const b = found.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (line: string | undefined) =>
    line === undefined ? '(the end of the page)' : JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}...` : line);
  return `${path}:${i + 1}: rendered from the record and the model ${show(a[i])}, the page has ${show(b[i])}`;
}

/** The pages' paths as a list in words: `a`, `a and b`, `a, b and c`. */
function listed(pages: readonly [string, string][]): string {
  const paths = pages.map(([path]) => path);
  return paths.length === 1 ? paths[0] : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;
}

function writePages(pages: readonly [string, string][]): void {
  for (const [path, text] of pages) {
    const dir = dirname(path);
    if (dir !== '') mkdirSync(dir, { recursive: true });
    writeFileSync(path, text);
  }
}

function readRecord(path: string): DocsManifest {
  if (!existsSync(path)) throw new StaleRecord(`${path} is missing`);
  let record: DocsManifest;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as DocsManifest;
  } catch {
    throw new StaleRecord(`${path} is not JSON`);
  }
  if (typeof record?.variants !== 'object' || !Array.isArray(record?.pages)) throw new StaleRecord(`${path} is not a docs record`);
  return record;
}

export async function runDocs(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck docs')
    .description(
      "Run every variant of a model and write its documentation: purpose, variants, actions, each property's verdicts, every counterexample.",
    )
    .argument('<model>', 'the model file')
    .option('--out <file>', 'where to write the page (default: docs/<model file name>.md)')
    .option('--render', 'search nothing: render the pages from the recorded results, replaying each counterexample through the model')
    .option('--check', 'search nothing: exit 1 if the pages differ from the ones the recorded results render, naming the first line')
    .option('--workers <n>', 'variants checked at once (default: the number of cores)', positiveInt)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<{ out?: string; render?: boolean; check?: boolean; workers?: number }>(cmd, argv, io, 'modelcheck docs');
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  const files = pageFiles(file, opts.out);
  const { main: out, manifest: manifestOut, command } = files;
  if (!existsSync(resolve(file))) {
    io.stderr(`modelcheck docs: no model file at ${file}\n`);
    return EXIT.ERROR;
  }
  const chalk = new Chalk({ level: 0 });
  try {
    if (opts.check || opts.render) {
      const model = await loadModel(file);
      let pages: [string, string][];
      try {
        pages = renderedPages(model, readRecord(manifestOut), file, files);
      } catch (e) {
        if (!(e instanceof StaleRecord)) throw e;
        io.stderr(`${out} cannot be rendered from ${manifestOut}: ${e.message}; the results changed: run ${command}\n`);
        return EXIT.NOT_MET;
      }
      if (opts.render) {
        writePages(pages);
        io.stdout(`rendered ${listed(pages)} from ${manifestOut}\n`);
        return EXIT.OK;
      }
      const differences = pages.map(([path, text]) => firstDifference(path, text, existsSync(path) ? readFileSync(path, 'utf8') : ''));
      const stale = differences.filter((d) => d !== undefined);
      if (stale.length > 0) {
        io.stderr(`${stale.join('\n')}\nthe pages are stale: run ${command} --render\n`);
        return EXIT.NOT_MET;
      }
      io.stdout(`${listed(pages)} ${pages.length === 1 ? 'is' : 'are'} as ${manifestOut} and ${file} render them\n`);
      return EXIT.OK;
    }
    const model = await loadModel(file);
    const names = model.variants.map((v) => v.name);
    const render: RenderOptions = {
      colorLevel: 0,
      trace: 'changes',
      coverage: false,
      json: false,
      itf: false,
      mermaid: false,
      modelFile: file,
      docs: true,
    };
    const { workers } = threadPlan(opts.workers, names.length);
    const rendered =
      workers > 1
        ? await checkInWorkers(file, names, { params: [], search: {}, render }, workers)
        : model.variants.map((v) => renderVariant(checkVariant(v, { modelName: model.name }), render, v as Variant<unknown>));
    const incomplete = rendered.filter((r) => r.summary.verdict === 'incomplete');
    if (incomplete.length > 0) {
      io.stderr(`modelcheck docs: not written: the search of ${incomplete.map((r) => r.summary.variant).join(', ')} did not finish\n`);
      return EXIT.INCOMPLETE;
    }
    const runs = rendered.map((r) => r.docs!);
    const results = resultsRecord(model, files, Object.fromEntries(runs.map((r) => [r.variant, r.manifest])));
    const fromRuns = pagesOf(model, runs, file, files, results);
    const record = withPages(results, fromRuns, files);
    // The pages are those the record renders, as --render and --check make them: they must be the
    // runs' own, or the record would not say what the searches found.
    const fromRecord = renderedPages(model, record, file, files);
    const mismatch = fromRecord.map(([path, text], i) => firstDifference(path, text, fromRuns[i][1])).find((d) => d !== undefined);
    if (mismatch !== undefined) {
      io.stderr(
        `modelcheck docs: not written: replaying the record does not give the runs' pages (is the model deterministic?): ${mismatch}\n`,
      );
      return EXIT.ERROR;
    }
    writePages(fromRecord);
    writeFileSync(manifestOut, `${JSON.stringify(record, null, 2)}\n`);
    const wrote = `${listed(fromRecord)} (and ${manifestOut})`;
    const counterexamples = rendered.reduce((n, r) => n + r.summary.violated.length, 0);
    io.stdout(`wrote ${wrote}: ${names.length} variants, ${counterexamples} counterexample${counterexamples === 1 ? '' : 's'}\n`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof StaleRecord) {
      io.stderr(`modelcheck docs: ${e.message}\n`);
      return EXIT.ERROR;
    }
    return exitForFailure(e, io, file, chalk);
  }
}
