// `modelcheck conform --audit FILE`: a Kubernetes API server's audit log replayed through the
// library's API server, each answer compared with the recorded one (src/k8s/audit/). Exit 0
// when every replayed request agrees, 1 at a divergence, 2 for a file it cannot read, 3 when
// the log holds no request it could replay (nothing was checked).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { Chalk } from 'chalk';
import { type AuditLog, type Place, joinLogs, readAuditLog, UnreadableLog } from '../../k8s/audit/auditLog.ts';
import { replayAudit, type Answer, type Divergence, type ReplayReport } from '../../k8s/audit/replayAudit.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import type { CliIo } from '../io.ts';
import { parseCommand } from '../parseCommand.ts';

interface Options {
  audit: string[];
  kinds?: string;
  json?: boolean;
  color: boolean;
}

export async function runConform(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck conform')
    .description(
      "Replay a Kubernetes API server's audit log (audit.k8s.io Events: JSON lines, an EventList or an array; gzip too) through the library's API server, and compare each answer with the recorded one.",
    )
    .option(
      '--audit <file>',
      'the audit log (RequestResponse level replays every write; Metadata level, reads only); repeat for rotated files, oldest first',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option(
      '--kinds <Kind,...>',
      'only the requests for objects of these kinds (default: every kind, under the rules of a custom resource)',
    )
    .option('--json', 'print the report as JSON')
    .option('--no-color', 'no colour')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck conform', (o) => {
    if (o.audit.length === 0) throw new Error('conform needs --audit FILE');
  });
  if ('exit' in parsed) return parsed.exit;
  const { opts } = parsed;
  const logs: AuditLog[] = [];
  for (const file of opts.audit) {
    try {
      // (Places name the file only when there are several.)
      logs.push(readAuditLog(readFileSync(file), opts.audit.length > 1 ? file : undefined));
    } catch (e) {
      if (e instanceof RangeError) io.stderr(`modelcheck conform: ${file} is not an audit log: values nested too deep to read\n`);
      else if (e instanceof UnreadableLog) io.stderr(`modelcheck conform: ${file} is not an audit log: ${e.message}\n`);
      else io.stderr(`modelcheck conform: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return EXIT.ERROR;
    }
  }
  const kinds =
    opts.kinds === undefined
      ? undefined
      : new Set(
          opts.kinds
            .split(',')
            .map((k) => k.trim())
            .filter((k) => k !== ''),
        );
  let report: ReplayReport;
  try {
    report = replayAudit(joinLogs(logs), kinds === undefined ? {} : { kinds });
  } catch (e) {
    // (A body nested deeper than the stack: no API server writes one; Go's decoder stops at 10,000.)
    if (!(e instanceof RangeError)) throw e;
    io.stderr(`modelcheck conform: the log holds values nested too deep to read: ${e.message}\n`);
    return EXIT.ERROR;
  }
  const file = opts.audit.length === 1 ? opts.audit[0] : `${opts.audit.length} files`;
  if (opts.json) io.stdout(`${JSON.stringify({ file, ...report }, null, 2)}\n`);
  else io.stdout(renderReport(file, report, new Chalk({ level: opts.color && io.colorOut ? 1 : 0 })));
  if (report.divergences.length > 0) return EXIT.NOT_MET;
  return report.replayed === 0 ? EXIT.INCOMPLETE : EXIT.OK;
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
