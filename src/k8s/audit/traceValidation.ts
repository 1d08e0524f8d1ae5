// A recorded run checked against a model (issue 48, part 3): is the audit log of one API server
// a behaviour of the model? The log's writes to the kinds the model holds are the observations;
// each step of the model that sends a write to that server must be the next recorded one
// (requestJson.ts isRequestOf), every other step is free (followLog.ts, the engine's search
// constrained by a log, as TLA+ trace validation does). Reads are not observed: a controller
// reads its cache, which the audit log never sees, and a live GET changes nothing.
import type { Variant } from '../../engine/model.ts';
import { type FollowResult, followLog } from '../../engine/search/followLog.ts';
import { viewOf } from '../../engine/values/representations/table.ts';
import { ApiServer } from '../apiServer.ts';
import { KubeObject } from '../object.ts';
import type { AuditEvent, AuditLog, Place } from './auditLog.ts';
import { isKindObject, resourceOf } from './auditObjects.ts';
import { detailOf, isRequestOf, resourceOfKind } from './requestJson.ts';
import type { Tally } from './replayAudit.ts';

/** The API servers (by name) and the kinds of objects in a variant's initial states. */
export function serversAndKinds(variant: Variant<unknown>): { servers: string[]; kinds: string[] } {
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
  return { servers: [...servers].sort(), kinds: [...kinds].sort() };
}

export interface RecordedRunCheck {
  /** The server whose log it is, and the recorded writes followed (observations), with where each was. */
  readonly server: string;
  readonly observations: readonly { readonly event: AuditEvent; readonly at: Place }[];
  /** Events that are not observations, by why. */
  readonly skipped: readonly Tally[];
  readonly result: FollowResult;
}

const WRITES = new Set(['create', 'update', 'patch', 'delete']);

/** Follows `log`, the audit log of the model's API server `server`, through `variant`. */
export function checkRecordedRun(
  variant: Variant<unknown>,
  log: AuditLog,
  options: { readonly server: string; readonly kinds: ReadonlySet<string>; readonly maxStatesPerPosition?: number },
): RecordedRunCheck {
  // Each resource's kind: from the bodies, else the resource a written log gives the model's kind.
  const kindOfResource = new Map<string, string>();
  for (const kind of options.kinds) kindOfResource.set(resourceOfKind(kind), kind);
  for (const { event } of log.events) {
    const ref = event.objectRef;
    if (ref?.resource === undefined || ref.subresource) continue;
    for (const body of [event.requestObject, event.responseObject]) {
      if (isKindObject(body) && typeof body.kind === 'string') kindOfResource.set(resourceOf(ref), body.kind);
    }
  }
  const kindOf = (e: AuditEvent) => {
    const ref = e.objectRef;
    if (ref?.resource === undefined) return undefined;
    return kindOfResource.get(resourceOf(ref)) ?? kindOfResource.get(ref.resource);
  };
  const observations: { event: AuditEvent; at: Place }[] = [];
  const skipped = new Map<string, { count: number; first: Place }>();
  const skip = (why: string, at: Place) => {
    const s = skipped.get(why);
    if (s) s.count++;
    else skipped.set(why, { count: 1, first: at });
  };
  for (const { event, at } of log.events) {
    if (event.stage !== 'ResponseComplete') skip(`stage ${event.stage}`, at);
    else if (!WRITES.has(event.verb)) skip(`${event.verb}: reads are not observed (a controller reads its cache)`, at);
    else if (event.objectRef?.resource === undefined) skip('not a resource request', at);
    else if (/[?&]dryRun=/.test(event.requestURI ?? '')) skip('a dry run', at);
    else {
      const kind = kindOf(event);
      if (kind === undefined || !options.kinds.has(kind)) skip(`${kind ?? resourceOf(event.objectRef)}: not a kind the model holds`, at);
      else observations.push({ event, at });
    }
  }
  const result = followLog(
    variant,
    observations.map((o) => o.event),
    {
      observed: (e) => {
        const d = detailOf(e);
        return d !== undefined && d.server === options.server && d.request.verb !== 'GET' && options.kinds.has(d.request.key.split('/')[0]);
      },
      matches: (e, o) => isRequestOf(detailOf(e)!, o, kindOf),
      ...(options.maxStatesPerPosition !== undefined ? { maxStatesPerPosition: options.maxStatesPerPosition } : {}),
    },
  );
  return { server: options.server, observations, skipped: [...skipped].map(([why, s]) => ({ why, ...s })), result };
}
