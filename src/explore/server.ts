// `modelcheck explore`'s web server: the page (plain ES modules and CSS, no build step) and a
// small JSON API over walk.ts. It listens on 127.0.0.1 only, and answers only its own page:
// a request whose Host is not this server's (DNS rebinding) or whose Origin is another site's
// is refused, since the API runs the model's code on the user's machine.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ModelError } from '../engine/errors.ts';
import { normalizeVariant, type Model, type Variant } from '../engine/model.ts';
import type { TraceStep } from '../engine/search/trace.ts';
import { formatError } from '../report/errorText.ts';
import { pathToMermaid } from '../report/mermaid.ts';
import { eventsToJson, stateToJson } from '../report/stateJson.ts';
import { changeText, pathText, readCounterexample } from '../report/steps.ts';
import { Chalk } from 'chalk';
import { initialOf, type Counterexample, type Run } from './counterexamples.ts';
import { describeInitials } from './initials.ts';
import { initLabel, Walk } from './walk.ts';
import { WatchExpression, WatchSyntaxError } from './watch.ts';

export interface ExplorerOptions {
  /** The model file as the user named it (for error messages). */
  readonly file: string;
  readonly model: Model;
  /** The variant the page opens on. */
  readonly variant: string;
  /** 0: a free port. */
  readonly port: number;
  /** Counterexamples read from files (--trace). */
  readonly loaded: readonly Counterexample[];
  /** The path the page opens on, when a trace file was given. */
  readonly open?: { readonly variant: string; readonly init: number; readonly steps: readonly string[] };
  /**
   * Starts a search of a variant in the background, updating `run` as it goes, and returns what
   * cancels it (the CLI's: it runs searches in worker threads, and keeps what they find).
   */
  readonly search: (variant: string, run: Run) => () => void;
  /** Searches kept from an earlier server for this very model, by variant. */
  readonly runs?: ReadonlyMap<string, Run>;
}

export interface Explorer {
  readonly url: string;
  close(): Promise<void>;
}

const page = (file: string) => new URL(`./page/${file}`, import.meta.url);
/**
 * Mermaid draws the sequence diagram in the page: the same text `--out-mermaid` writes, drawn by
 * the library GitHub uses to draw it, from its one-file browser build (pinned in package.json).
 * The published package carries that one file (scripts/build.ts copies it beside the page, with
 * its licence), not the package and its hundred dependencies; a checkout reads it from
 * node_modules, where mermaid is a development dependency.
 */
const VENDORED = new URL('./vendor/mermaid.min.js', import.meta.url);
const MERMAID = existsSync(VENDORED)
  ? VENDORED
  : new URL('dist/mermaid.min.js', pathToFileURL(createRequire(import.meta.url).resolve('mermaid/package.json')));

const PAGE_FILES: { readonly [path: string]: { readonly file: URL; readonly type: string } } = {
  '/': { file: page('index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: page('app.js'), type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: page('app.css'), type: 'text/css; charset=utf-8' },
  '/vendor/mermaid.min.js': { file: MERMAID, type: 'text/javascript; charset=utf-8' },
};

/** Starts the server; resolves once it listens. */
export async function startExplorer(o: ExplorerOptions): Promise<Explorer> {
  const walks = new Map<string, Walk<unknown>>();
  const runs = new Map<string, Run>(o.runs ?? []);
  const cancels = new Map<string, () => void>();
  // Worked out once: each counterexample's initial state (the page polls the list every second
  // while a search runs) and each variant's initial states described for the picker.
  const initials = new WeakMap<Counterexample, number>();
  const initialsOf = new WeakMap<object, ReturnType<typeof describeInitials>>();
  const walkOf = (name: string): Walk<unknown> | undefined => {
    const v = o.model.variants.find((x) => x.name === name) as Variant<unknown> | undefined;
    if (v === undefined) return undefined;
    let w = walks.get(name);
    if (w === undefined) {
      w = new Walk(o.model.name, v);
      walks.set(name, w);
    }
    return w;
  };
  let port = 0;
  const server: Server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (e) {
      // (An answer already begun cannot be replaced by an error: it is cut off.)
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof ModelError) {
        send(res, 422, { error: { code: e.code, message: e.message, text: formatError(e, o.file, new Chalk({ level: 0 })) } });
      } else {
        send(res, 500, { error: { code: 'internal', message: e instanceof Error ? (e.stack ?? e.message) : String(e) } });
      }
    }
  });

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const refusal = foreign(req, port, url.pathname.startsWith('/api/'));
    if (refusal !== undefined) {
      send(res, 403, { error: { code: 'forbidden', message: refusal } });
      return;
    }
    const served = PAGE_FILES[url.pathname];
    if (served !== undefined && req.method === 'GET') {
      // Revalidated at each load (no-cache), answered 304 when unchanged: the 5.5 MB diagram
      // library crosses once, and an edited page file is seen at the next load.
      const { size, mtimeMs } = statSync(served.file);
      const etag = `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}"`;
      const headers = { 'content-type': served.type, 'cache-control': 'no-cache', etag, ...SECURITY_HEADERS };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, headers);
      res.end(readFileSync(served.file));
      return;
    }
    if (url.pathname === '/favicon.ico' && req.method === 'GET') {
      // No icon: 204 rather than a 404 in the browser's console.
      res.writeHead(204, { 'cache-control': 'max-age=86400', ...SECURITY_HEADERS });
      res.end();
      return;
    }
    if (url.pathname === '/api/model' && req.method === 'GET') {
      send(res, 200, {
        model: o.model.name,
        description: o.model.description ?? null,
        file: o.file,
        variant: o.variant,
        open: o.open ?? null,
        variants: o.model.variants.map((v) => ({
          name: v.name,
          description: v.description ?? null,
          assumptions: normalizeVariant(v).assumptions,
          expectedViolations: normalizeVariant(v).expectedViolations,
          properties: v.properties.map((p) => ({ name: p.name, kind: p.kind, statement: p.statement })),
        })),
      });
      return;
    }
    // Every other API request is about one variant (its `variant` parameter, else the one opened).
    if (!url.pathname.startsWith('/api/')) {
      send(res, 404, { error: { code: 'not-found', message: `no ${req.method} ${url.pathname} here` } });
      return;
    }
    const name = url.searchParams.get('variant') ?? o.variant;
    const walk = walkOf(name);
    if (walk === undefined) {
      send(res, 404, { error: { code: 'MC004_UNKNOWN_VARIANT', message: unknownVariant(o.model, name) } });
      return;
    }
    if (url.pathname === '/api/path' && req.method === 'GET') {
      const init = Number(url.searchParams.get('init') ?? '0');
      send(res, 200, pathJson(walk, init, url.searchParams.getAll('step')));
      return;
    }
    if (url.pathname === '/api/counterexamples' && req.method === 'GET') {
      const run = runs.get(name);
      // (The first state is for finding the initial state here; the page needs only its number.)
      const withInit = (x: Counterexample) => {
        const { first: _first, ...rest } = x;
        const init = initials.get(x) ?? initialOf(walk, x);
        initials.set(x, init);
        return { ...rest, init };
      };
      send(res, 200, {
        loaded: o.loaded.filter((x) => x.variant === name).map(withInit),
        run: run === undefined ? null : { ...run, counterexamples: run.counterexamples.map(withInit) },
      });
      return;
    }
    if (url.pathname === '/api/run' && req.method === 'POST') {
      // Searched again unless a search is running: a kept or cancelled one is replaced.
      if (runs.get(name)?.status !== 'running') {
        const run: Run = { status: 'running', counterexamples: [] };
        runs.set(name, run);
        cancels.set(name, o.search(name, run));
      }
      send(res, 202, { run: runs.get(name) });
      return;
    }
    if (url.pathname === '/api/cancel' && req.method === 'POST') {
      if (runs.get(name)?.status === 'running') cancels.get(name)?.();
      send(res, 202, { run: runs.get(name) ?? null });
      return;
    }
    if (url.pathname === '/api/initials' && req.method === 'GET') {
      let described = initialsOf.get(walk);
      if (described === undefined) {
        const states = walk.initialStates();
        const views = states.map((s) => stateToJson(walk.view([{ action: null, state: s }], s)));
        described = describeInitials(
          views,
          states.map((_, i) => initLabel(i, states.length)),
        );
        initialsOf.set(walk, described);
      }
      send(res, 200, described);
      return;
    }
    if (url.pathname === '/api/watch' && req.method === 'GET') {
      let expression: WatchExpression;
      try {
        expression = new WatchExpression(url.searchParams.get('expr') ?? '');
      } catch (e) {
        if (!(e instanceof WatchSyntaxError)) throw e;
        send(res, 400, { error: { code: 'watch-syntax', message: e.message } });
        return;
      }
      const walked = walk.walk(Number(url.searchParams.get('init') ?? '0'), url.searchParams.getAll('step'));
      send(res, 200, {
        values: expression.along(walked.trace.map((t) => ({ state: t.state, view: stateToJson(walk.view(walked.trace, t.state)) }))),
      });
      return;
    }
    send(res, 404, { error: { code: 'not-found', message: `no ${req.method} ${url.pathname} here` } });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : o.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
};

function send(res: ServerResponse, status: number, body: unknown): void {
  // The body first: a body that cannot be written as JSON is an error answered as one, before any header is sent.
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
  res.end(text);
}

/** The header the page sends with every API request: another origin's page cannot send it without a CORS preflight, which this server never grants. */
export const API_HEADER = 'x-modelcheck-explore';

/**
 * Why a request is not from this server's own page, or undefined when it is. The page itself
 * may be opened from anywhere (a shared link); the API runs the model's code, so it answers
 * only requests that carry API_HEADER and come from this origin (a page on another port of
 * 127.0.0.1 is same-site, not same-origin).
 */
export function foreign(req: IncomingMessage, port: number, api: boolean): string | undefined {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host ?? '';
  if (!own.includes(host)) return `requests for host ${host || '(none)'} are refused: this server answers http://127.0.0.1:${port}/ only`;
  if (!api) return undefined;
  const origin = req.headers.origin;
  if (origin !== undefined && !own.some((h) => origin === `http://${h}`)) {
    return `requests from ${origin} are refused: this server answers its own page only`;
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `${site} requests are refused: this server answers its own page only`;
  if (req.headers[API_HEADER] !== '1')
    return `requests without the ${API_HEADER} header are refused: this server answers its own page only`;
  return undefined;
}

function unknownVariant(model: Model, name: string): string {
  return `model ${model.name} has no variant ${name}; its variants: ${model.variants.map((v) => v.name).join(', ')}`;
}

/** A path as the page shows it: each step read, the last state's view, what is enabled there, and the properties. */
function pathJson(walk: Walk<unknown>, init: number, labels: readonly string[]) {
  const initials = walk.initialStates();
  const walked = walk.walk(init, labels);
  const trace: TraceStep<unknown>[] = walked.trace.map((step) => ({ ...step, view: walk.view(walked.trace, step.state) }));
  const variant = walk.variant.name;
  const base = { variant, init, initials: initials.map((_, i) => initLabel(i, initials.length)), refusal: walked.refusal ?? null };
  if (trace.length === 0) return { ...base, steps: [], state: null, before: null, enabled: [], properties: [], mermaid: '' };
  const reading = readCounterexample({ trace });
  const enabled = walk.enabled(walked.trace);
  const properties = walk.properties(walked.trace, enabled);
  const last = trace[trace.length - 1];
  const previous = trace.length > 1 ? trace[trace.length - 2] : undefined;
  const violated = properties.filter((p) => p.justViolated).map((p) => p.name);
  const ending = violated.length > 0 ? `${violated.join(', ')} violated` : `state ${trace.length}`;
  return {
    ...base,
    steps: reading.steps.map((s, i) => ({
      number: s.number,
      label: s.label,
      actor: s.actor,
      events: eventsToJson(trace[i].events),
      changes: s.changes.map((c) => ({ path: pathText(c, s.viewed), text: changeText(c, s.viewed), at: [...c.path] })),
    })),
    state: { view: stateToJson(last.view ?? last.state), fingerprint: walk.fingerprint(last.state) },
    // The state before the last step, for what the page marks: subjects it removed, list items it added.
    before: previous === undefined ? null : stateToJson(previous.view ?? previous.state),
    enabled: enabled.map((x) => ({ label: x.label, actor: x.actor, stutters: x.stutters, outsideConstraint: x.outsideConstraint })),
    properties,
    mermaid: pathToMermaid(trace, ending),
  };
}
