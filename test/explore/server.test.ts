// The explorer's server (src/explore/server.ts) over HTTP, as the page uses it: the model, a
// path's state, a search run on demand whose counterexamples replay, and refusals of requests
// that do not come from its own page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IncomingHttpHeaders, request } from 'node:http';
import { searchForExplorer } from '../../src/cli/commands/explore.ts';
import { API_HEADER, startExplorer, type Explorer } from '../../src/explore/server.ts';
import dieHard from '../fixtures/dieHard.ts';
import { DIE_HARD_JUGS, DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

let explorer: Explorer;
beforeAll(async () => {
  const file = 'test/fixtures/dieHard.ts';
  explorer = await startExplorer({
    file,
    model: dieHard,
    variant: 'default',
    port: 0,
    loaded: [],
    search: (name, run) => searchForExplorer(file, [], name, run),
  });
});
afterAll(() => explorer.close());

/** A request with the headers given as they are (fetch would not let a test set Host). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: any; type: string }> {
  const url = new URL(path, explorer.url);
  return new Promise((resolve, reject) => {
    // As the page does: its API requests carry the explorer's header.
    const all = { [API_HEADER]: '1', ...headers };
    const req = request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method, headers: all }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(text) : text,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the explorer server', () => {
  it('listens on 127.0.0.1 and serves the page and its module', async () => {
    expect(explorer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="/app.js">');
    expect((await get('/app.js')).type).toContain('text/javascript');
  });

  it('describes the model and its variants', async () => {
    const { body } = await get('/api/model');
    expect(body.model).toBe('DieHard');
    expect(body.variants.map((v: { name: string }) => v.name)).toEqual(['default']);
    expect(body.variants[0].properties).toEqual([
      { name: 'NotSolved', kind: 'invariant', statement: 'The big jug never holds exactly 4 gallons.' },
    ]);
  });

  it("answers a path with its steps, the last state's changes, what is enabled and the properties", async () => {
    const steps = DIE_HARD_STEPS;
    const q = new URLSearchParams([['variant', 'default'], ...steps.map((s): [string, string] => ['step', s])]);
    const { body } = await get(`/api/path?${q}`);
    expect(body.refusal).toBeNull();
    expect(body.steps.map((s: { label: string | null }) => s.label)).toEqual([null, ...steps]);
    expect(body.steps[6].changes.map((c: { text: string }) => c.text)).toEqual(['small: 2 -> 3', 'big: 5 -> 4']);
    expect(body.state.view).toEqual({ small: 3, big: 4 });
    expect(body.properties.find((p: { name: string }) => p.name === 'NotSolved')).toMatchObject({ value: 'violated', justViolated: true });
    expect(body.enabled.map((x: { label: string }) => x.label)).toContain('EmptyBigJug');
    expect(body.mermaid).toContain('NotSolved violated');
  });

  it('says which step of a path cannot be taken', async () => {
    const { body } = await get('/api/path?variant=default&step=FillBigJug&step=FillBigJug&step=Nope');
    expect(body.refusal).toMatchObject({ at: 3, label: 'Nope' });
    expect(body.steps.length).toBe(3);
    expect((await get('/api/path?variant=other')).body.error.message).toBe('model DieHard has no variant other; its variants: default');
  });

  it('runs the search on demand, and its counterexample replays to the violation', async () => {
    expect((await get('/api/run?variant=default', { origin: new URL(explorer.url).origin }, 'POST')).status).toBe(202);
    let run: any;
    for (let i = 0; i < 200; i++) {
      run = (await get('/api/counterexamples?variant=default')).body.run;
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run.status).toBe('done');
    expect(run.counterexamples).toHaveLength(1);
    const x = run.counterexamples[0];
    expect(x).toMatchObject({ property: 'NotSolved', init: 0, source: 'search' });
    // TLC's shortest solution has 7 states: 6 steps.
    expect(x.steps).toHaveLength(6);
    const q = new URLSearchParams([['variant', 'default'], ...x.steps.map((s: string) => ['step', s])]);
    const { body } = await get(`/api/path?${q}`);
    expect(body.refusal).toBeNull();
    expect(body.state.view.big).toBe(4);
  }, 60_000);

  it("evaluates a watch expression at every state of a path: TLC's solution's big jug", async () => {
    const q = new URLSearchParams([
      ['variant', 'default'],
      ...DIE_HARD_STEPS.map((s) => ['step', s]),
      ['expr', '[state.small, state.big]'],
    ]);
    const { status, body } = await get(`/api/watch?${q}`);
    expect(status).toBe(200);
    // dieHardSolution.ts's jugs, state by state.
    expect(body.values).toEqual(DIE_HARD_JUGS.map(([small, big]) => ({ value: [small, big] })));
    const bad = await get(
      `/api/watch?${new URLSearchParams([
        ['variant', 'default'],
        ['expr', 'state.big +'],
      ])}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('the watch expression "state.big +" cannot be read');
  });

  it('describes one initial state with nothing to tell it apart', async () => {
    expect((await get('/api/initials?variant=default')).body).toEqual({ initials: [{ label: 'init', differences: [] }], alsoDiffering: 0 });
  });

  it('cancels nothing where no search runs', async () => {
    const { status, body } = await get('/api/cancel?variant=default', {}, 'POST');
    expect(status).toBe(202);
    expect(body.run === null || body.run.status !== 'running').toBe(true);
  });

  it('refuses requests from other origins and for other hosts', async () => {
    const evil = await get('/api/model', { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.error.message).toBe('requests from http://evil.example are refused: this server answers its own page only');
    expect((await get('/api/run?variant=default', { origin: 'http://evil.example' }, 'POST')).status).toBe(403);
    expect((await get('/api/model', { host: 'evil.example' })).status).toBe(403);
    expect((await get('/api/model', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Another port of 127.0.0.1 is the same site, not the same origin; a simple GET sends no Origin.
    expect((await get('/api/model', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const bare = await get('/api/model', { [API_HEADER]: '' });
    expect(bare.status).toBe(403);
    expect(bare.body.error.message).toBe(`requests without the ${API_HEADER} header are refused: this server answers its own page only`);
    // The page itself opens from a link anywhere; only its API is guarded.
    expect((await get('/', { 'sec-fetch-site': 'cross-site' })).status).toBe(200);
    expect((await get('/api/model', { origin: new URL(explorer.url).origin })).status).toBe(200);
  });
});

describe('what the browser loads', () => {
  it('the page files are revalidated, answered 304 while unchanged (the 5.5 MB diagram library crosses once)', async () => {
    const first = await rawGet('/vendor/mermaid.min.js');
    expect([first.status, first.headers['cache-control']]).toEqual([200, 'no-cache']);
    const again = await rawGet('/vendor/mermaid.min.js', { 'if-none-match': String(first.headers.etag) });
    expect([again.status, again.length]).toEqual([304, 0]);
  });

  it('favicon.ico: 204, not a 404', async () => {
    expect((await rawGet('/favicon.ico')).status).toBe(204);
  });
});

/** A GET with its status, headers and the length of its body. */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; length: number }> {
  const url = new URL(path, explorer.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: url.pathname, headers }, (res) => {
      let length = 0;
      res.on('data', (c: Buffer) => (length += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, length }));
    });
    req.on('error', reject);
    req.end();
  });
}
