// `modelcheck docs <model>`: runs every variant and writes the model's Markdown documentation
// (docs/<model>.md by default), and beside it a record of what the pages were made from and of
// each variant's results (docs/<model>.manifest.json). `--check` runs no search: it compares the
// record's inputs with today's (src/cli/docsInputs.ts) and the pages with their recorded digests,
// so that CI fails on a stale page in a second. Results are compared by the end-to-end tests,
// which run the variants anyway (docs/architecture.md, "Generated documentation").
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { checkVariant } from '../engine/bfs.ts';
import { ModelError } from '../engine/errors.ts';
import type { Model } from '../engine/model.ts';
import { formatError } from '../report/errorText.ts';
import { modelDocs, pageFiles } from '../report/docs.ts';
import type { DocsManifest } from '../report/manifest.ts';
import { docsInputs, inputDifferences, pageDigest } from './docsInputs.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { loadModel } from './loadModel.ts';
import { parseCommand } from './parseCommand.ts';
import type { CliIo } from './main.ts';
import { renderVariant, type RenderOptions } from './render.ts';
import { checkInWorkers, WorkerModelError } from './workerPool.ts';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

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

/**
 * Whether the pages and their record still describe the model; the reasons when not. It loads
 * nothing: the Markdown files the pages include are the ones the record names (a model that
 * names another one has changed, and says so), so a model that no longer loads is still
 * reported as changed.
 */
function staleness(file: string, manifestPath: string): string[] {
  if (!existsSync(manifestPath)) return [`${manifestPath} is missing`];
  let recorded: DocsManifest;
  try {
    recorded = JSON.parse(readFileSync(manifestPath, 'utf8')) as DocsManifest;
  } catch {
    return [`${manifestPath} is not JSON`];
  }
  if (typeof recorded?.pages !== 'object' || typeof recorded?.inputs !== 'object') return [`${manifestPath} is not a docs record`];
  const dir = dirname(manifestPath);
  const reasons: string[] = [];
  for (const [page, digest] of Object.entries(recorded.pages)) {
    const path = join(dir, page);
    if (!existsSync(path)) reasons.push(`${path} is missing`);
    else if (pageDigest(readFileSync(path, 'utf8')) !== digest) reasons.push(`${path} was edited after it was generated`);
  }
  const included = Object.keys(recorded.inputs)
    .filter((k) => k.endsWith('.md') && !k.startsWith('modelcheck/'))
    .map((k) => resolve(dir, k));
  reasons.push(...inputDifferences(recorded.inputs, docsInputs(file, included, dir), dir));
  return reasons;
}

export async function runDocs(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck docs')
    .description(
      "Run every variant of a model and write its documentation: purpose, variants, actions, each property's verdicts, every counterexample.",
    )
    .argument('<model>', 'the model file')
    .option('--out <file>', 'where to write the page (default: docs/<model file name>.md)')
    .option('--check', 'run nothing: exit 1 if the page is older than the model or the checker')
    .option('--workers <n>', 'variants checked at once (default: the number of cores)', positiveInt)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<{ out?: string; check?: boolean; workers?: number }>(cmd, argv, io, 'modelcheck docs');
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  const files = pageFiles(file, opts.out);
  const { main: out, matrices: matricesOut, manifest: manifestOut, command } = files;
  if (!existsSync(resolve(file))) {
    io.stderr(`modelcheck docs: no model file at ${file}\n`);
    return EXIT.ERROR;
  }
  const chalk = new Chalk({ level: 0 });
  try {
    if (opts.check) {
      const reasons = staleness(file, manifestOut);
      if (reasons.length > 0) {
        io.stderr(`${out} is stale: ${reasons.join('; ')}; run: ${command}\n`);
        return EXIT.NOT_MET;
      }
      io.stdout(`${out} is up to date with ${file} (${manifestOut})\n`);
      return EXIT.OK;
    }
    const model = await loadModel(file);
    const explanations = readExplanations(model, file);
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
    const workers = Math.min(opts.workers ?? availableParallelism(), names.length);
    const rendered =
      workers > 1
        ? await checkInWorkers(file, names, { params: [], search: {}, render }, workers)
        : model.variants.map((v) => renderVariant(checkVariant(v, { modelName: model.name }), render));
    const incomplete = rendered.filter((r) => r.summary.verdict === 'incomplete');
    if (incomplete.length > 0) {
      io.stderr(`modelcheck docs: not written: the search of ${incomplete.map((r) => r.summary.variant).join(', ')} did not finish\n`);
      return EXIT.INCOMPLETE;
    }
    const runs = rendered.map((r) => r.docs!);
    const pages = modelDocs(model, runs, {
      command,
      manifestFile: basename(manifestOut),
      matricesFile: basename(matricesOut),
      explanations,
    });
    const dir = dirname(out);
    if (dir !== '') mkdirSync(dir, { recursive: true });
    const written: [string, string][] = [[out, pages.main]];
    if (pages.matrices !== undefined) written.push([matricesOut, pages.matrices]);
    for (const [path, text] of written) writeFileSync(path, text);
    const manifest: DocsManifest = {
      generatedBy: command,
      pages: Object.fromEntries(written.map(([path, text]) => [basename(path), pageDigest(text)])),
      inputs: docsInputs(file, [...explanationFiles(model, file).values()], dirname(manifestOut)),
      variants: Object.fromEntries(runs.map((r) => [r.variant, r.manifest])),
    };
    writeFileSync(manifestOut, `${JSON.stringify(manifest, null, 2)}\n`);
    const wrote = `${written.map(([path]) => path).join(' and ')} (and ${manifestOut})`;
    const counterexamples = rendered.reduce((n, r) => n + r.summary.violated.length, 0);
    io.stdout(`wrote ${wrote}: ${names.length} variants, ${counterexamples} counterexample${counterexamples === 1 ? '' : 's'}\n`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof ModelError) {
      io.stderr(`${formatError(e, file, chalk)}\n`);
      return EXIT.ERROR;
    }
    if (e instanceof WorkerModelError) {
      io.stderr(`${e.text}\n`);
      return EXIT.ERROR;
    }
    throw e;
  }
}
