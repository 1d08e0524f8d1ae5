// `modelcheck merge REPORT...`: joins the reports of a plan's shards (modelcheck shard) into the
// report one machine's run gives: the --json document of `modelcheck MODEL [--matrix NAME]
// --json`, its variants in that run's order whatever the order the shards finished in; with
// --docs, the docs record and pages `modelcheck docs MODEL` writes. A shard without a report,
// or reports of different plans, make no merge: the missing shards are named (exit 3), never a
// silently partial report.
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { selectMatrices } from '../../engine/check.ts';
import { writeWhole } from '../wholeFile.ts';
import { matrixJson } from '../../report/matrixJson.ts';
import { modelJson } from '../../report/json.ts';
import type { VariantManifest } from '../../report/manifest.ts';
import { exitForFailure } from '../failure.ts';
import { EXIT, exitCodeOf, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { inputsChanged, mergeSwarm, planId, selectedVariants, type ShardReport } from '../scaleOut.ts';
import { writeDocsRecord } from './docs.ts';

interface Options {
  out?: string;
  docs?: boolean;
}

/** The report files named: files as they are, a directory's shard-*.json. */
function reportFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => /^shard-\d+\.json$/.test(f))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
}

export async function runMerge(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck merge')
    .description(
      "Join the reports of a plan's shards into the report one machine's run gives (its --json document), or with --docs the docs record and pages. Every shard's report is needed: a missing one is named, and nothing is merged.",
    )
    .argument('<reports...>', "the shards' reports (shard-I.json), or directories holding them")
    .option('--out <file>', 'write the merged --json document here (default: stdout)')
    .option('--docs', "write the model's docs record and pages, as modelcheck docs does (a plan made with --all)")
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck merge', (o) => {
    if (o.docs && o.out !== undefined)
      throw new InvalidArgumentError('--docs writes the record and pages beside the model; it takes no --out');
  });
  if ('exit' in parsed) return parsed.exit;
  const { opts } = parsed;
  const files = reportFiles(cmd.args);
  const chalk = new Chalk({ level: 0 });
  const reports: ShardReport[] = [];
  for (const f of files) {
    try {
      const r = JSON.parse(readFileSync(f, 'utf8')) as ShardReport;
      if (r?.kind !== 'modelcheck-shard') throw new Error('it is not a shard report (modelcheck shard writes them)');
      reports.push(r);
    } catch (e) {
      io.stderr(`modelcheck merge: cannot read ${f}: ${(e as Error).message}\n`);
      return EXIT.ERROR;
    }
  }
  if (reports.length === 0) {
    io.stderr(`modelcheck merge: no shard reports in ${cmd.args.join(', ')}\n`);
    return EXIT.ERROR;
  }
  const plan = reports[0].plan;
  const id = planId(plan);
  const other = reports.findIndex((r) => r.planId !== id || planId(r.plan) !== r.planId);
  if (other >= 0) {
    io.stderr(`modelcheck merge: ${files[other]} is a report of another plan than ${files[0]}'s; merge one plan's reports\n`);
    return EXIT.ERROR;
  }
  const byIndex = new Map(reports.map((r) => [r.index, r]));
  const missing = plan.shards.map((_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    io.stderr(
      `modelcheck merge: incomplete: no report from shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${plan.shards.length}; run ${missing.length === 1 ? 'it' : 'them'} (modelcheck shard PLAN --index I) and merge again\n`,
    );
    return EXIT.INCOMPLETE;
  }
  const file = plan.model;
  if (inputsChanged(plan)) {
    io.stderr(
      `modelcheck merge: the model's files or modelcheck itself changed since the plan was made; merge where the shards ran (the same files), or plan and run again\n`,
    );
    return EXIT.ERROR;
  }
  // (Refused before the model is loaded: the plan says it all.)
  if (opts.docs && plan.swarm !== undefined) {
    io.stderr('modelcheck merge: --docs records searches of every state; a swarm simulates: merge it without --docs\n');
    return EXIT.ERROR;
  }
  if (opts.docs && plan.selection.kind !== 'all') {
    io.stderr(`modelcheck merge: --docs needs a plan of every variant (modelcheck plan ${file} --all); this one is of ${plan.single}\n`);
    return EXIT.ERROR;
  }
  try {
    const model = await loadModel(file, plan.params);
    const names = selectedVariants(model, plan.selection);
    const inOrder = [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!);
    // A swarm: each variant's simulations, one a shard, joined; else each variant's one result.
    const results = new Map(
      plan.swarm !== undefined
        ? names.map((n) => {
            const runs = inOrder.map((r) => r.variants.find((v) => v.name === n)).filter((v) => v !== undefined);
            return [n, runs.length === inOrder.length ? { name: n, ...mergeSwarm(plan, runs), manifest: null } : undefined] as const;
          })
        : reports.flatMap((r) => r.variants.map((v) => [v.name, v] as const)),
    );
    const absent = names.filter((n) => results.get(n) === undefined);
    if (absent.length > 0) {
      io.stderr(`modelcheck merge: incomplete: the reports have no results for ${absent.join(', ')}\n`);
      return EXIT.INCOMPLETE;
    }
    const ordered = names.map((n) => results.get(n)!);
    const summaries = ordered.map((v) => v.summary);
    if (opts.docs) {
      const variants: Record<string, VariantManifest> = {};
      for (const v of ordered) {
        if (v.manifest === null) throw new Error(`the report of ${v.name} has no docs record`);
        variants[v.name] = v.manifest;
      }
      const written = writeDocsRecord(model, file, variants);
      io.stdout(`wrote ${written.join(', ')} from ${reports.length} shard reports: ${names.length} variants\n`);
      return EXIT.OK;
    }
    const matrices = plan.selection.kind === 'matrix' ? selectMatrices(model, plan.selection.matrix) : [];
    const doc = modelJson(
      model,
      ordered.map((v) => v.json),
      matrices.map((m) =>
        matrixJson(
          m.matrix,
          m.rows.map((row) => ({ values: row.values, summary: results.get(row.variant.name)!.summary })),
        ),
      ),
    );
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    if (opts.out === undefined) io.stdout(text);
    else writeWhole(opts.out, text);
    return exitCodeOf(summaries);
  } catch (e) {
    return exitForFailure(e, io, file, chalk);
  }
}
