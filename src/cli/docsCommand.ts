// `modelcheck docs <model>`: runs every variant and writes the model's Markdown documentation
// (docs/<model>.md by default). `--check` runs nothing: it compares the digest of the inputs the
// page records (the model file, the checker's sources, its dependencies) with today's, so that
// CI can fail on a stale page in a second rather than re-running every search.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkVariant } from '../engine/bfs.ts';
import { ModelError } from '../engine/errors.ts';
import { formatError } from '../report/errorText.ts';
import { modelDocs } from '../report/docs.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { loadModel } from './loadModel.ts';
import type { CliIo } from './main.ts';
import { renderVariant, type RenderOptions } from './render.ts';
import { checkInWorkers, WorkerModelError } from './workerPool.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
    .sort();
}

/**
 * What the page is made from: the model file and the modules beside it (which it may import),
 * every source file of the checker, and the checker's dependencies with their versions. Paths
 * are relative to the package, so the digest is the same in every clone.
 */
export function inputsDigest(modelFile: string): string {
  const h = createHash('sha256');
  const add = (label: string, content: string | Buffer) => {
    h.update(`${label}\0`);
    h.update(content);
    h.update('\0');
  };
  add('model', readFileSync(modelFile));
  const beside = readdirSync(dirname(modelFile)).filter((f) => f.endsWith('.ts') && join(dirname(modelFile), f) !== modelFile).sort();
  for (const f of beside) add(`beside the model: ${f}`, readFileSync(join(dirname(modelFile), f)));
  for (const f of filesUnder(join(PACKAGE_ROOT, 'src'))) add(relative(PACKAGE_ROOT, f).split('\\').join('/'), readFileSync(f));
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  add('dependencies', JSON.stringify(pkg.dependencies ?? {}));
  return h.digest('hex');
}

const RECORDED = /from inputs sha256:([0-9a-f]{64})/;

export async function runDocs(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck docs')
    .description("Run every variant of a model and write its documentation: purpose, variants, actions, each property's verdicts, every counterexample.")
    .argument('<model>', 'the model file')
    .option('--out <file>', 'where to write the page (default: docs/<model file name>.md)')
    .option('--check', 'run nothing: exit 1 if the page is older than the model or the checker')
    .option('--workers <n>', 'variants checked at once (default: the number of cores)', positiveInt)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  let file: string;
  let opts: { out?: string; check?: boolean; workers?: number };
  try {
    cmd.parse([...argv], { from: 'user' });
    file = cmd.args[0];
    opts = cmd.opts();
  } catch (e) {
    if (e instanceof CommanderError && e.code === 'commander.helpDisplayed') {
      io.stdout(cmd.helpInformation());
      return EXIT.OK;
    }
    const message = e instanceof Error ? e.message.replace(/^error: /, '') : String(e);
    io.stderr(`modelcheck docs: ${message}\n${cmd.helpInformation()}`);
    return EXIT.ERROR;
  }
  const out = opts.out ?? join('docs', `${basename(file).replace(/\.[cm]?[jt]s$/, '')}.md`);
  const command = `npx modelcheck docs ${file}${opts.out ? ` --out ${opts.out}` : ''}`;
  if (!existsSync(resolve(file))) {
    io.stderr(`modelcheck docs: no model file at ${file}\n`);
    return EXIT.ERROR;
  }
  const digest = inputsDigest(resolve(file));
  // A model with variant matrices gets a second page for them, next to the main one.
  const matricesOut = out.replace(/(\.md)?$/, '.matrices.md');
  if (opts.check) {
    // The matrices page is checked only if the main page says it links to one.
    const mainText = existsSync(out) ? readFileSync(out, 'utf8') : '';
    const pages = mainText.includes('## Variant matrices') ? [out, matricesOut] : [out];
    for (const page of pages) {
      const recorded = existsSync(page) ? RECORDED.exec(readFileSync(page, 'utf8'))?.[1] : undefined;
      if (recorded === digest) continue;
      io.stderr(
        recorded === undefined
          ? `${page} is missing or was not generated by modelcheck docs; run: ${command}\n`
          : `${page} is stale: ${file} or the checker changed since it was generated; run: ${command}\n`,
      );
      return EXIT.NOT_MET;
    }
    io.stdout(`${pages.join(' and ')} ${pages.length === 1 ? 'is' : 'are'} up to date with ${file} and the checker\n`);
    return EXIT.OK;
  }
  const chalk = new Chalk({ level: 0 });
  try {
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
    const pages = modelDocs(model, rendered.map((r) => r.docs!), command, digest, basename(matricesOut));
    const dir = dirname(out);
    if (dir !== '') mkdirSync(dir, { recursive: true });
    writeFileSync(out, pages.main);
    if (pages.matrices !== undefined) writeFileSync(matricesOut, pages.matrices);
    const wrote = pages.matrices !== undefined ? `${out} and ${matricesOut}` : out;
    io.stdout(`wrote ${wrote}: ${names.length} variants, ${rendered.reduce((n, r) => n + r.summary.violated.length, 0)} counterexamples\n`);
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
