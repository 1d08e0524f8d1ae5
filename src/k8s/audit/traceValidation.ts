// A recorded run checked against a model (issue 48, part 3): is the audit log of one API server
// a behaviour of the model? The log's writes to the kinds the model holds are the observations;
// each step of the model that sends a write to that server must be the next recorded one
// (requestJson.ts isRequestOf), every other step is free (followLog.ts, the engine's search
// constrained by a log, as TLA+ trace validation does). Reads are not observed: a controller
// reads its cache, which the audit log never sees, and a live GET changes nothing.
import type { StepEvent, Variant } from '../../engine/model.ts';
import { type FollowResult, followLog } from '../../engine/search/followLog.ts';
import { Expansion } from '../../engine/search/expansion.ts';
import { viewOf } from '../../engine/values/representations/table.ts';
import { ApiServer } from '../apiServer.ts';
import { KubeObject } from '../object.ts';
import { type AuditEvent, type AuditLog, type Place, Tallies } from './auditLog.ts';
import { kindsNamedIn, resourceOf } from './auditObjects.ts';
import { auditEventOf, detailOf, isRequestOf, resourceOfKind } from './requestJson.ts';
import type { Tally } from './replayAudit.ts';

/**
 * The API servers (by name) of a variant, and its kinds: those of the objects in its initial
 * states, and those its steps send requests about within the first `explore` states of a
 * breadth-first walk (default 5,000; a controller that creates a kind it does not start with).
 */
export function serversAndKinds(variant: Variant<unknown>, explore = 5_000): { servers: string[]; kinds: string[] } {
  const servers = new Set<string>();
  const kinds = new Set<string>();
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (v instanceof KubeObject) {
      kinds.add(v.kind);
      return;
    }
    const view = viewOf(v);
    if (view.kind === 'record') for (const [, x] of view.fields) walk(x);
    else if (view.kind === 'map') {
      for (const [k, x] of view.entries) {
        if (x instanceof ApiServer && typeof k === 'string') servers.add(k);
        walk(x);
      }
    } else if (view.kind === 'set' || view.kind === 'list' || view.kind === 'array') for (const x of view.items) walk(x);
    else if (view.kind === 'object') for (const x of Object.values(view.value)) walk(x);
  };
  for (const s of variant.init()) walk(s);
  if (servers.size > 0 && explore > 0) {
    const x = new Expansion(variant, { symmetry: false });
    const queue: unknown[] = [];
    const seenStates = new Set<string>();
    x.initialStates((s, fp) => {
      if (!seenStates.has(`${fp.hi}:${fp.lo}`)) {
        seenStates.add(`${fp.hi}:${fp.lo}`);
        // Its parts' digests kept, for its successors' fingerprints (as a search does).
        x.keep();
        queue.push(s);
      }
    });
    const events: StepEvent[] = [];
    for (let i = 0; i < queue.length && seenStates.size < explore; i++) {
      x.successors(
        queue[i],
        -1,
        (_ai, _p, t, fp) => {
          for (const e of events) {
            const d = detailOf(e);
            if (d !== undefined) kinds.add(d.request.key.split('/')[0]);
          }
          const k = `${fp.hi}:${fp.lo}`;
          if (!seenStates.has(k)) {
            seenStates.add(k);
            x.keep();
            queue.push(t);
          }
          return true;
        },
        -1,
        events,
      );
    }
  }
  return { servers: [...servers].sort(), kinds: [...kinds].sort() };
}

export interface RecordedRunCheck {
  /** The servers whose logs were followed, and the recorded writes followed (observations), in order, with where each was. */
  readonly servers: readonly string[];
  readonly observations: readonly { readonly event: AuditEvent; readonly at: Place; readonly server: string }[];
  /** Events that are not observations, by why. */
  readonly skipped: readonly Tally[];
  readonly result: FollowResult;
}

const WRITES = new Set(['create', 'update', 'patch', 'delete']);

/**
 * Follows the audit logs of some of the model's API servers (`logs`: each server's) through
 * `variant`. The logs of several servers are merged by the time each request was answered
 * (stageTimestamp), the order in which their answers were written; one server's log keeps its own order.
 */
export function checkRecordedRun(
  variant: Variant<unknown>,
  logs: readonly { readonly server: string; readonly log: AuditLog }[],
  options: {
    readonly kinds: ReadonlySet<string>;
    /** The namespace whose writes are the model's (the model has one); default: the one the writes are in, if they are in one. */
    readonly namespace?: string;
    readonly maxStatesPerPosition?: number;
  },
): RecordedRunCheck {
  // Each resource's kind: from the bodies, else the resource a written log gives the model's kind.
  const kindOfResource = new Map<string, string>();
  for (const kind of options.kinds) kindOfResource.set(resourceOfKind(kind), kind);
  for (const { log } of logs) kindsNamedIn(log.events, kindOfResource);
  const kindOf = (e: AuditEvent) => {
    const ref = e.objectRef;
    if (ref?.resource === undefined) return undefined;
    return kindOfResource.get(resourceOf(ref)) ?? kindOfResource.get(ref.resource);
  };
  const observations: { event: AuditEvent; at: Place; server: string }[] = [];
  const skipped = new Tallies();
  const skip = (why: string, at: Place) => skipped.add(why, at);
  for (const { server, log } of logs) {
    for (const { event, at } of log.events) {
      if (event.stage !== 'ResponseComplete') skip(`stage ${event.stage}`, at);
      else if (!WRITES.has(event.verb)) skip(`${event.verb}: reads are not observed (a controller reads its cache)`, at);
      else if (event.objectRef?.resource === undefined) skip('not a resource request', at);
      else if (/[?&]dryRun=/.test(event.requestURI ?? '')) skip('a dry run', at);
      else {
        const kind = kindOf(event);
        const ns = event.objectRef.namespace;
        if (kind === undefined || !options.kinds.has(kind)) skip(`${kind ?? resourceOf(event.objectRef)}: not a kind the model holds`, at);
        else if (options.namespace !== undefined && ns !== undefined && ns !== options.namespace)
          skip(`namespace ${ns}: not the model's (${options.namespace})`, at);
        else observations.push({ event, at, server });
      }
    }
  }
  const servers = new Set(logs.map((l) => l.server));
  const namespaces = [...new Set(observations.flatMap((o) => (o.event.objectRef?.namespace ? [o.event.objectRef.namespace] : [])))].sort();
  if (options.namespace === undefined && namespaces.length > 1) {
    const why = `the recorded writes to the model's kinds are in ${namespaces.length} namespaces (${namespaces.join(', ')}), and the model has one: say which (--namespace)`;
    return {
      servers: [...servers],
      observations: [],
      skipped: skipped.list(),
      result: { verdict: 'undecided', at: 0, why, states: 0 },
    };
  }
  const ordered = logs.length > 1 ? mergeByTime(observations) : observations;
  const result = followLog(variant, ordered, {
    observed: (e) => {
      const d = detailOf(e);
      return d !== undefined && servers.has(d.server) && d.request.verb !== 'GET' && options.kinds.has(d.request.key.split('/')[0]);
    },
    matches: (e, o) => {
      const d = detailOf(e)!;
      return d.server === o.server && isRequestOf(d, o.event, kindOf);
    },
    ...(options.maxStatesPerPosition !== undefined ? { maxStatesPerPosition: options.maxStatesPerPosition } : {}),
  });
  return { servers: [...servers], observations: ordered, skipped: skipped.list(), result };
}

/**
 * Several servers' observations in the order their answers were written (stageTimestamp), each
 * server's own kept in its log's order whatever its timestamps say: a merge of the logs, the
 * earliest head first (an entry without a time goes before any with one).
 */
function mergeByTime<T extends { event: AuditEvent; server: string }>(observations: readonly T[]): T[] {
  const queues = new Map<string, T[]>();
  for (const o of observations) queues.set(o.server, [...(queues.get(o.server) ?? []), o]);
  const heads = [...queues.values()];
  const out: T[] = [];
  const at = heads.map(() => 0);
  for (;;) {
    let best = -1;
    for (let q = 0; q < heads.length; q++) {
      if (at[q] >= heads[q].length) continue;
      const t = heads[q][at[q]].event.stageTimestamp ?? '';
      if (best === -1 || t < (heads[best][at[best]].event.stageTimestamp ?? '')) best = q;
    }
    if (best === -1) return out;
    out.push(heads[best][at[best]++]);
  }
}

/**
 * A path's requests as the audit logs its API servers would have written (RequestResponse
 * level), one log per server, each Event timed by its step (stageTimestamp) so that the logs
 * merge back into the path's order: what tests and users feed back to checkRecordedRun.
 */
export function auditLogsOf(
  steps: readonly { readonly action: string | null; readonly events?: readonly StepEvent[] }[],
): Map<string, AuditLog> {
  const logs = new Map<string, { event: AuditEvent; at: Place }[]>();
  let n = 0;
  for (const step of steps) {
    for (const e of step.events ?? []) {
      const d = detailOf(e);
      if (d === undefined || d.request.verb === 'GET') continue;
      n++;
      const events = logs.get(d.server) ?? [];
      logs.set(d.server, events);
      const event = {
        ...auditEventOf(d, n, (step.action ?? '').split('.')[0]),
        stageTimestamp: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
      };
      events.push({ event, at: { line: events.length + 1 } });
    }
  }
  return new Map([...logs].map(([server, events]) => [server, { events, notEvents: [] }]));
}
