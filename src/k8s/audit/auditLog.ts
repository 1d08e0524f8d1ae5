// Reading a Kubernetes API server's audit log: audit.k8s.io Event objects (v1, or v1beta1 as
// 2017-2019 clusters wrote them), one JSON per line as the log backend writes them (--audit-log-path),
// or one JSON document holding an Event, an EventList (the webhook backend's batches) or an array
// of Events; gzipped or not. A cloud's wrapper around an Event (Azure's diagnostic log:
// properties.log) is opened; anything else that is not an Event (Google Cloud's AuditLog
// entries, blank lines) is counted with why, never guessed at.
import { gunzipSync } from 'node:zlib';

/** An audit.k8s.io Event, the fields the replay reads (k8s.io/apiserver pkg/apis/audit/v1 types.go). */
export interface AuditEvent {
  /** `Metadata`, `Request`, `RequestResponse` (or `None`): what the event holds of the bodies. */
  readonly level: string;
  readonly auditID?: string;
  /** `RequestReceived`, `ResponseStarted`, `ResponseComplete` or `Panic`. */
  readonly stage: string;
  readonly requestURI?: string;
  /** get, list, watch, create, update, patch, delete, deletecollection (the RBAC verb). */
  readonly verb: string;
  readonly user?: { readonly username?: string };
  readonly userAgent?: string;
  readonly objectRef?: ObjectReference;
  readonly responseStatus?: { readonly code?: number; readonly reason?: string; readonly message?: string };
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly requestReceivedTimestamp?: string;
  /** When the stage was reached: for ResponseComplete, when the answer was written (the order of logs of several servers). */
  readonly stageTimestamp?: string;
}

/** audit.ObjectReference: which object the request was for. */
export interface ObjectReference {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly subresource?: string;
  readonly resourceVersion?: string;
  readonly uid?: string;
}

/** Where an entry was: its file (where one was named) and line (the document's first, for one JSON document). */
export interface Place {
  readonly file?: string;
  readonly line: number;
}

/** A log read: its events in order, each with where it was, and what was not an Event, with why. */
export interface AuditLog {
  readonly events: readonly { readonly event: AuditEvent; readonly at: Place }[];
  readonly notEvents: readonly { readonly at: Place; readonly why: string }[];
}

/** Several logs as one, in the order given (a rotated log's files, oldest first). */
export function joinLogs(logs: readonly AuditLog[]): AuditLog {
  return { events: logs.flatMap((l) => l.events), notEvents: logs.flatMap((l) => l.notEvents) };
}

/** Why a file is not an audit log at all (the CLI's exit 2). */
export class UnreadableLog extends Error {}

/** The events of `bytes`, a log as written by the API server (see the top of this file). */
export function readAuditLog(bytes: Uint8Array, file?: string): AuditLog {
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(gzipped ? gunzipSync(bytes) : bytes);
  } catch (e) {
    throw new UnreadableLog(gzipped ? `not a readable gzip file: ${(e as Error).message}` : 'not UTF-8 text');
  }
  const events: { event: AuditEvent; at: Place }[] = [];
  const notEvents: { at: Place; why: string }[] = [];
  const take = (value: unknown, line: number) => {
    const at = file === undefined ? { line } : { file, line };
    for (const found of eventsIn(value)) {
      if (typeof found === 'string') notEvents.push({ at, why: found });
      else events.push({ event: found, at });
    }
  };
  // One JSON document (an EventList, an array, an Event pretty-printed over many lines), else
  // one per line.
  const whole = parseJson(text);
  if (whole.ok && typeof whole.value === 'object' && whole.value !== null) {
    take(whole.value, 1);
    return { events, notEvents };
  }
  const lines = text.split('\n');
  let blank = 0;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') {
      blank++;
      continue;
    }
    const parsed = parseJson(line);
    if (!parsed.ok) notEvents.push({ at: file === undefined ? { line: i + 1 } : { file, line: i + 1 }, why: `not JSON: ${parsed.error}` });
    else take(parsed.value, i + 1);
  }
  if (events.length === 0 && notEvents.length > 0 && notEvents.every((n) => n.why.startsWith('not JSON'))) {
    throw new UnreadableLog(`no line is JSON (line ${notEvents[0].at.line}: ${notEvents[0].why.replace(/^not JSON: /, '')})`);
  }
  if (events.length === 0 && notEvents.length === 0 && blank === lines.length) throw new UnreadableLog('the file is empty');
  return { events, notEvents };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** What in an Event is not as audit.k8s.io/v1 types.go has it, if anything the replay reads is not. */
function malformedIn(v: Record<string, unknown>): string | undefined {
  const ref = v.objectRef;
  if (ref !== undefined) {
    if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return 'objectRef is not an object';
    for (const [field, x] of Object.entries(ref)) if (typeof x !== 'string') return `objectRef.${field} is not a string`;
  }
  if (v.stage === 'ResponseComplete') {
    const status = v.responseStatus as Record<string, unknown> | undefined;
    if (typeof status !== 'object' || status === null) return 'no responseStatus at ResponseComplete';
    if (!Number.isInteger(Number(status.code))) return 'responseStatus.code is not a number';
  }
  if (v.requestURI !== undefined && typeof v.requestURI !== 'string') return 'requestURI is not a string';
  return undefined;
}

/** The Events in one JSON value, and for what is not one, why (a string). */
function eventsIn(value: unknown): (AuditEvent | string)[] {
  if (Array.isArray(value)) return value.flatMap(eventsIn);
  if (typeof value !== 'object' || value === null) return ['not an object'];
  const v = value as Record<string, unknown>;
  if (v.kind === 'EventList' && Array.isArray(v.items)) return v.items.flatMap(eventsIn);
  if (v.kind === 'Event' && typeof v.verb === 'string' && typeof v.stage === 'string') {
    const apiVersion = v.apiVersion;
    // (falco's samples, as the webhook backend sent them in 2018, carry no apiVersion.)
    if (apiVersion !== undefined && !(typeof apiVersion === 'string' && apiVersion.startsWith('audit.k8s.io/'))) {
      return [`an Event of ${String(apiVersion)}, not audit.k8s.io`];
    }
    const malformed = malformedIn(v);
    if (malformed !== undefined) return [`a malformed Event: ${malformed}`];
    const status = v.responseStatus as Record<string, unknown> | undefined;
    return [
      {
        ...v,
        level: typeof v.level === 'string' ? v.level : 'Metadata',
        ...(status !== undefined ? { responseStatus: { ...status, code: Number(status.code) } } : {}),
      } as unknown as AuditEvent,
    ];
  }
  // Azure Event Hubs' export: { "records": [ ... ] }.
  if (Array.isArray(v.records)) return v.records.flatMap(eventsIn);
  // Azure's diagnostic settings (category kube-audit, kube-audit-admin) wrap the Event, as an
  // object or as its JSON text.
  const props = v.properties as Record<string, unknown> | undefined;
  if (typeof v.category === 'string' && props !== undefined && props.log !== undefined) {
    const log = typeof props.log === 'string' ? parseJson(props.log) : { ok: true as const, value: props.log };
    return log.ok ? eventsIn(log.value) : [`Azure's ${v.category} entry whose log is not JSON`];
  }
  if (v.protoPayload !== undefined)
    return ['a Google Cloud AuditLog entry (protoPayload), not an audit.k8s.io Event: it holds no request or response bodies'];
  return [`not an audit.k8s.io Event (kind ${v.kind === undefined ? 'missing' : JSON.stringify(v.kind)})`];
}

/** Entries left out, by why: how many, and where the first was (the reports' `Tally`s). */
export class Tallies {
  private readonly byWhy = new Map<string, { count: number; first: Place }>();

  add(why: string, at: Place): void {
    const s = this.byWhy.get(why);
    if (s) s.count++;
    else this.byWhy.set(why, { count: 1, first: at });
  }

  /** In order of first appearance. */
  list(): { readonly why: string; readonly count: number; readonly first: Place }[] {
    return [...this.byWhy].map(([why, s]) => ({ why, ...s }));
  }
}
