// `modelcheck conform --audit FILE`: a Kubernetes API server's audit log replayed through the
// library's API server, each answer compared with the recorded one (src/k8s/audit/). Exit 0
// when every replayed request agrees, 1 at a divergence, 2 for a file it cannot read, 3 when
// the log holds no request it could replay (nothing was checked).
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { Chalk } from 'chalk';
import { type AuditLog, type Place, joinLogs, readAuditLog, UnreadableLog } from '../../k8s/audit/auditLog.ts';
import { checkRecordedRun, type RecordedRunCheck, serversAndKinds } from '../../k8s/audit/traceValidation.ts';
import type { Variant } from '../../engine/model.ts';
import { ModelError } from '../../engine/errors.ts';
import { exitForFailure } from '../failure.ts';
import { auditPolicy, kindsWithoutGroup } from '../../k8s/audit/auditPolicy.ts';
import { loadModel } from '../loadModel.ts';
import { replayAudit, type Answer, type Divergence, type ReplayReport } from '../../k8s/audit/replayAudit.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import type { CliIo } from '../io.ts';
import { parseCommand } from '../parseCommand.ts';

interface Options {
  audit: string[];
  namespace?: string;
  policy?: boolean;
  group: string[];
  variant?: string;
  param: string[];
  kinds?: string;
  json?: boolean;
  color: boolean;
}

export async function runConform(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck conform')
    .description(
      "Replay a Kubernetes API server's audit log (audit.k8s.io Events: JSON lines, an EventList or an array; gzip too) through the library's API server, comparing each answer with the recorded one; with a model, also check that the recorded run is one of the model's behaviours.",
    )
    .argument('[model]', "the model file whose behaviours the recorded run must be one of (its servers' kinds are the ones replayed)")
    .option(
      '--audit <[server=]file>',
      'an audit log (RequestResponse level replays every write; Metadata level, reads only); repeat for rotated files, oldest first; with a model of several API servers, name the server each log is from (source=source.log)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--namespace <name>', "the namespace whose writes are the model's (default: the one the recorded writes are in)")
    .option('--variant <name>', 'the variant the recorded run must be a behaviour of (default: the first)')
    .option('--param <name=value>', "set one of the model's parameters (repeat for several)", (v: string, all: string[]) => [...all, v], [])
    .option(
      '--kinds <Kind,...>',
      "only the requests for objects of these kinds (default: a model's kinds, else every kind, under the rules of a custom resource)",
    )
    .option('--policy', 'print the audit policy (audit.k8s.io/v1 Policy) that records what checking a run against the model needs')
    .option(
      '--group <Kind=group>',
      "the API group of one of the model's kinds, for --policy (built-in kinds' are known)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--json', 'print the report as JSON')
    .option('--no-color', 'no colour')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck conform', (o) => {
    if (o.policy && cmd.args[0] === undefined) throw new InvalidArgumentError('--policy needs a model: modelcheck conform MODEL --policy');
    if (o.audit.length === 0 && !o.policy) throw new InvalidArgumentError('conform needs --audit FILE (or, with a model, --policy)');
  });
  if ('exit' in parsed) return parsed.exit;
  const { file: modelFile, opts } = parsed;
  const chalk = new Chalk({ level: opts.color && io.colorOut ? 1 : 0 });
  let variant: Variant<unknown> | undefined;
  let servers: string[] = [];
  let modelKinds: string[] = [];
  if (modelFile !== undefined) {
    try {
      const model = await loadModel(modelFile, opts.param);
      const name = opts.variant ?? model.variants[0].name;
      variant = model.variants.find((v) => v.name === name);
      if (variant === undefined) {
        throw new ModelError('MC004_UNKNOWN_VARIANT', `model ${model.name} has no variant ${name}`, {
          model: model.name,
          hint: `its variants: ${model.variants.map((v) => v.name).join(', ')}`,
        });
      }
      ({ servers, kinds: modelKinds } = serversAndKinds(variant));
      if (servers.length === 0) {
        io.stderr(
          `modelcheck conform: ${modelFile} has no Kubernetes API servers (no k8s world in the initial states of variant ${variant.name}): nothing of an audit log can be its behaviour\n`,
        );
        return EXIT.ERROR;
      }
    } catch (e) {
      return exitForFailure(e, io, modelFile, chalk);
    }
  }
  if (opts.policy) {
    const groups = new Map(opts.group.map((g) => [g.slice(0, g.indexOf('=')), g.slice(g.indexOf('=') + 1)] as const));
    const missing = kindsWithoutGroup(modelKinds, groups);
    if (missing.length > 0) {
      io.stderr(
        `modelcheck conform: the API group of ${missing.join(', ')} is not known here: give it, --group ${missing[0]}=GROUP (kubectl api-resources shows it)\n`,
      );
      return EXIT.ERROR;
    }
    io.stdout(auditPolicy(modelKinds, groups, `${modelFile} (variant ${variant!.name})`));
    return EXIT.OK;
  }
  // Each log: its server (with a model) and its files, in the order given.
  const byServer = new Map<string, string[]>();
  for (const arg of opts.audit) {
    const at = arg.indexOf('=');
    const named = at > 0 && servers.includes(arg.slice(0, at));
    const server = named ? arg.slice(0, at) : servers.length === 1 ? servers[0] : '';
    if (variant !== undefined && server === '') {
      io.stderr(
        `modelcheck conform: name the API server ${arg} is the log of: --audit SERVER=${arg} (the model's servers: ${servers.join(', ')})\n`,
      );
      return EXIT.ERROR;
    }
    byServer.set(server, [...(byServer.get(server) ?? []), named ? arg.slice(at + 1) : arg]);
  }
  const logs: { server: string; files: string[]; log: AuditLog }[] = [];
  for (const [server, files] of byServer) {
    const read: AuditLog[] = [];
    for (const file of files) {
      try {
        // (Places name the file only when there are several.)
        read.push(readAuditLog(readFileSync(file), opts.audit.length > 1 ? file : undefined));
      } catch (e) {
        if (e instanceof RangeError) io.stderr(`modelcheck conform: ${file} is not an audit log: values nested too deep to read\n`);
        else if (e instanceof UnreadableLog) io.stderr(`modelcheck conform: ${file} is not an audit log: ${e.message}\n`);
        else io.stderr(`modelcheck conform: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
        return EXIT.ERROR;
      }
    }
    logs.push({ server, files, log: joinLogs(read) });
  }
  const listed = opts.kinds
    ?.split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const kinds = listed !== undefined ? new Set(listed) : variant !== undefined ? new Set(modelKinds) : undefined;
  const reports: { server: string; file: string; report: ReplayReport }[] = [];
  let run: RecordedRunCheck | undefined;
  try {
    for (const l of logs) {
      const file = l.files.length === 1 ? l.files[0] : `${l.files.length} files`;
      reports.push({ server: l.server, file, report: replayAudit(l.log, kinds === undefined ? {} : { kinds }) });
    }
    if (variant !== undefined) {
      run = checkRecordedRun(variant, logs, {
        kinds: kinds ?? new Set(modelKinds),
        ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
      });
    }
  } catch (e) {
    // (A body nested deeper than the stack: no API server writes one; Go's decoder stops at 10,000.)
    if (e instanceof RangeError) {
      io.stderr(`modelcheck conform: the log holds values nested too deep to read: ${e.message}\n`);
      return EXIT.ERROR;
    }
    return exitForFailure(e, io, modelFile ?? opts.audit[0], chalk);
  }
  if (opts.json) {
    const replay = reports.map((r) => ({ ...(r.server !== '' ? { server: r.server } : {}), file: r.file, ...r.report }));
    io.stdout(
      `${JSON.stringify(
        run === undefined
          ? replay.length === 1
            ? replay[0]
            : { replay }
          : { replay, recordedRun: { variant: variant!.name, ...runJson(run) } },
        null,
        2,
      )}\n`,
    );
  } else {
    io.stdout(reports.map((r) => renderReport(r.server !== '' ? `${r.file} (${r.server})` : r.file, r.report, chalk)).join('\n'));
    if (run !== undefined) io.stdout(`\n${renderRun(variant!.name, run, chalk)}`);
  }
  if (reports.some((r) => r.report.divergences.length > 0) || run?.result.verdict === 'diverges') return EXIT.NOT_MET;
  if (run?.result.verdict === 'undecided') return EXIT.INCOMPLETE;
  if (run !== undefined) return run.observations.length === 0 ? EXIT.INCOMPLETE : EXIT.OK;
  return reports.every((r) => r.report.replayed === 0) ? EXIT.INCOMPLETE : EXIT.OK;
}

/** Where an observation was, as the report names it: `source line 5`. */
function observationText(run: RecordedRunCheck, i: number): string {
  const o = run.observations[i];
  const e = o.event;
  return `${run.servers.length > 1 ? `${o.server} ` : ''}${placeText(o.at)}: ${e.verb.toUpperCase()} ${e.requestURI ?? ''} -> ${e.responseStatus?.code}`;
}

function runJson(run: RecordedRunCheck) {
  const r = run.result;
  return {
    servers: run.servers,
    observations: run.observations.length,
    skipped: run.skipped,
    ...(r.verdict === 'diverges'
      ? {
          ...r,
          request: { at: run.observations[r.at].at, server: run.observations[r.at].server, event: run.observations[r.at].event },
          instead: r.instead.map((x) => ({
            action: x.action,
            request: x.event.kind === 'request' ? `${x.event.to}: ${x.event.request} -> ${x.event.answer}` : x.event.text,
          })),
        }
      : r),
  };
}

/** The recorded run's verdict against the variant: conforms with the path, or the first request no step makes. */
function renderRun(variant: string, run: RecordedRunCheck, chalk: InstanceType<typeof Chalk>): string {
  const r = run.result;
  const out: string[] = [];
  const head = `the recorded run against variant ${variant} (${plural(run.observations.length, 'recorded write')} to ${run.servers.join(', ')})`;
  if (r.verdict === 'undecided') out.push(`${head}: ${chalk.yellow('undecided')}: ${r.why}`);
  else if (r.verdict === 'conforms') {
    out.push(
      `${head}: ${chalk.green('conforms')}, a behaviour of the model from initial state ${r.init + 1} (${plural(r.states, 'state')} consistent with the log on the way):`,
    );
    for (const [i, step] of r.steps.entries()) {
      out.push(
        `  ${String(i + 1).padStart(3)}. ${step.action}${step.matched.map((m) => `\n         matches ${observationText(run, m)}`).join('')}`,
      );
    }
  } else {
    out.push(`${head}: ${chalk.red('does not conform')}`);
    out.push(`  recorded write ${r.at + 1}, ${observationText(run, r.at)}`);
    out.push(`  no step of the model makes it from any of the ${plural(r.consistent, 'state')} consistent with the log before it`);
    if (r.instead.length > 0) {
      out.push('  what the model could have sent instead:');
      for (const x of r.instead)
        if (x.event.kind === 'request') out.push(`    ${x.action}: ${x.event.to}: ${x.event.request} -> ${x.event.answer}`);
    } else out.push('  from those states the model sends no write the log records');
    out.push(`  a path to one of those states, from initial state ${r.init + 1}:`);
    for (const [i, step] of r.steps.entries())
      out.push(
        `  ${String(i + 1).padStart(3)}. ${step.action}${step.matched.length > 0 ? `  (matches recorded write ${step.matched.map((m) => m + 1).join(', ')})` : ''}`,
      );
  }
  const skipped = run.skipped.reduce((n, s) => n + s.count, 0);
  if (skipped > 0) {
    out.push(`  not followed: ${plural(skipped, 'event')}`);
    for (const s of run.skipped) out.push(`  ${count(s.count).padStart(7)}  ${s.why} (first at ${placeText(s.first)})`);
  }
  return `${out.join('\n')}\n`;
}

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The report as text: the verdict first, then what was skipped and why. */
export function renderReport(file: string, r: ReplayReport, chalk: InstanceType<typeof Chalk>): string {
  const out: string[] = [];
  const notEvents = r.notEvents.reduce((n, x) => n + x.count, 0);
  out.push(`${file}: ${plural(r.events, 'audit event')}${notEvents > 0 ? `, ${plural(notEvents, 'entry', 'entries')} not events` : ''}`);
  const kinds = r.kinds.map((k) => `${k.kind} ${count(k.replayed)}`).join(', ');
  if (r.replayed === 0) out.push(chalk.yellow('no request could be replayed: nothing was checked (see what was skipped)'));
  else {
    const verdict =
      r.divergences.length === 0
        ? chalk.green(`every one agrees`)
        : chalk.red(`${count(r.agreed)} agree, ${plural(r.divergences.length, 'differs', 'differ')}`);
    out.push(`replayed ${plural(r.replayed, 'request')} through the library's API server (${kinds}): ${verdict}`);
  }
  if (r.rebuilt > 0) out.push(`objects rebuilt from what the log shows of them: ${count(r.rebuilt)}`);
  const first = r.divergences[0];
  if (first !== undefined) out.push('', ...renderDivergence(first, chalk));
  if (r.skipped.length > 0) {
    out.push(
      '',
      `not replayed: ${plural(
        r.skipped.reduce((n, s) => n + s.count, 0),
        'event',
      )}`,
    );
    for (const s of r.skipped) out.push(`  ${count(s.count).padStart(7)}  ${s.why} (first at ${placeText(s.first)})`);
  }
  if (r.notEvents.length > 0) {
    out.push('', 'not audit events:');
    for (const s of r.notEvents) out.push(`  ${count(s.count).padStart(7)}  ${s.why} (first at ${placeText(s.first)})`);
  }
  return `${out.join('\n')}\n`;
}

function renderDivergence(d: Divergence, chalk: InstanceType<typeof Chalk>): string[] {
  const body = d.body === undefined ? undefined : JSON.stringify(d.body);
  return [
    chalk.bold(`first divergence: ${placeText(d.at)} (event ${count(d.event)}${d.auditID !== undefined ? `, auditID ${d.auditID}` : ''})`),
    `  ${d.request}${d.user !== undefined ? `  by ${d.user}` : ''}`,
    ...(body !== undefined ? [`  body: ${body.length > 400 ? `${body.slice(0, 400)}...` : body}`] : []),
    `  recorded: ${answerText(d.recorded)}`,
    `  library:  ${answerText(d.library)}`,
    ...d.diff.map((x) => `  ${chalk.red('differs')} ${x}`),
    ...(d.note !== undefined ? [`  note: ${d.note}`] : []),
  ];
}

function placeText(at: Place): string {
  return at.file === undefined ? `line ${at.line}` : `${at.file}:${at.line}`;
}

function answerText(a: Answer): string {
  const o = a.object;
  const what =
    o === undefined
      ? ''
      : o.removed
        ? ', object removed'
        : `, finalizers [${o.finalizers.join(', ')}]${o.deleting ? ', being deleted' : ''}${o.generation !== undefined ? `, generation ${o.generation}` : ''}${o.wrote === undefined ? '' : o.wrote ? ', written' : ', not written'}`;
  return `${a.code}${a.reason !== undefined ? ` (${a.reason})` : ''}${what}`;
}
