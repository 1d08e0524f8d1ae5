// `modelcheck explore` end to end: a real server process (bin/modelcheck.js) and headless
// Chromium clicking through its page. The counterexample is found by the search the page starts;
// what the page must show of it is the race upstream fixed in v1.9.5 (PR #11814): the mover's
// removeFinalizers empties the DockerCluster's finalizers, the DockerCluster controller's
// EnsureFinalizer (PR #11286, finalizers.EnsureFinalizer before the pause check) puts
// dockercluster.infrastructure.cluster.x-k8s.io back, and NoFinalizerResurrection is violated by
// that step (docs/capi-semantics.md has the upstream lines).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  cursorOf,
  forwardTo,
  launchChromium,
  replayFoundCounterexample,
  startExplorerProcess,
  type ExplorerProcess,
} from '../helpers/explorerBrowser.ts';
import { runCli } from '../helpers/runCli.ts';

const FINALIZER = 'dockercluster.infrastructure.cluster.x-k8s.io';
const SUBJECT = 'source DockerCluster/c1';

let explorer: ExplorerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // One after the other: a browser that fails to start must not leave the server running.
  explorer = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.3']);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await explorer?.stop();
});

const current = (p: Page) => p.locator('#path li.current').evaluate((li) => li.firstChild?.textContent ?? '');
const finalizers = (p: Page) => p.locator(`[data-subject="${SUBJECT}"] tr[data-field="metadata.finalizers"]`);

describe('modelcheck explore models/move.ts', () => {
  it('finds the v1.9.3 counterexamples by a search run from the page, and replays NoFinalizerResurrection to the violation', async () => {
    await page.goto(explorer.url);
    const labels = await replayFoundCounterexample(page, 'NoFinalizerResurrection', 900_000);
    const removal = labels.indexOf('mover.removeFinalizers(DockerCluster/c1)');
    const ensure = labels.indexOf('dockerClusterController.ensureFinalizer(DockerCluster/c1)');
    expect(removal).toBeGreaterThan(0);
    expect(ensure).toBe(labels.length - 1);

    // The mover's removal: the finalizers emptied, the row marked as changed by this step.
    await forwardTo(page, removal);
    expect(await current(page)).toBe('mover.removeFinalizers(DockerCluster/c1)');
    await expect.poll(() => finalizers(page).locator('td.value').textContent()).toBe('[]');
    expect(await finalizers(page).getAttribute('class')).toContain('changed');
    expect(await page.locator('li[data-property="NoFinalizerResurrection"]').getAttribute('data-value')).not.toBe('violated');

    // The controller's EnsureFinalizer: the finalizer back, and the invariant violated by this step.
    await forwardTo(page, ensure);
    expect(await current(page)).toBe('dockerClusterController.ensureFinalizer(DockerCluster/c1)');
    expect(await finalizers(page).locator('td.value').textContent()).toBe(`[${FINALIZER}]`);
    expect(await finalizers(page).getAttribute('class')).toContain('changed');
    const property = page.locator('li[data-property="NoFinalizerResurrection"]');
    expect(await property.getAttribute('data-value')).toBe('violated');
    expect(await property.getAttribute('class')).toContain('just-violated');
    await expect.poll(() => page.locator('#diagram svg').count()).toBe(1);
  }, 1_200_000);

  it("marks a liveness counterexample's cycle: the state it goes back to, and the way back after the last step", async () => {
    // The search run by the first test found it; its cycle start is the run's, read from the API.
    const origin = new URL(explorer.url).origin;
    const found = await fetch(new URL('/api/counterexamples?variant=v1.9.3', explorer.url), {
      headers: { origin, 'x-modelcheck-explore': '1' },
    }).then((r) => r.json() as Promise<{ run: { counterexamples: { property: string; loop: number; steps: unknown[] }[] } }>);
    const lasso = found.run.counterexamples.find((x: { property: string }) => x.property === 'EveryMovedObjectIsEventuallyRemoved');
    if (lasso === undefined) throw new Error('the v1.9.3 run found no counterexample to EveryMovedObjectIsEventuallyRemoved');
    expect(lasso.loop).toBeGreaterThanOrEqual(0);
    expect(lasso.loop).toBeLessThanOrEqual(lasso.steps.length);
    const pick = page.locator('button[data-counterexample="EveryMovedObjectIsEventuallyRemoved"]');
    // Numbered as the path is, from 1 (the initial state is entry 1): state `loop` is entry loop + 1.
    expect(await pick.textContent()).toContain(`then a cycle back to state ${lasso.loop + 1}`);
    await pick.click();
    await page.waitForSelector('body[data-cursor="0"]');
    const back = page.locator('#path li.cycle');
    expect(await back.getAttribute('data-cycle')).toBe(String(lasso.loop));
    expect(await back.textContent()).toBe(`then back to state ${lasso.loop + 1}, and round again for ever`);
    expect(await page.locator(`#path li[data-step="${lasso.loop}"]`).getAttribute('class')).toContain('cycle-start');
    // Off the lasso's path (a step of its own at the first state that offers one), no cycle is marked.
    for (let at = 0; at < lasso.steps.length; at++) {
      const offered = await page
        .locator('#enabled button[data-label]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-label') ?? ''));
      const other = offered.find((l) => l !== lasso.steps[at]);
      if (other === undefined) {
        await forwardTo(page, at + 1);
        continue;
      }
      await page.click(`#enabled button[data-label="${other}"]`);
      await page.waitForSelector(`body[data-cursor="${at + 1}"]`);
      break;
    }
    await expect.poll(() => page.locator('#path li.cycle').count()).toBe(0);

    // Back to the end of NoFinalizerResurrection's counterexample, where the next test starts.
    await page.locator('button[data-counterexample="NoFinalizerResurrection"]').click();
    await page.waitForSelector('body[data-cursor="0"]');
    await forwardTo(page, (await page.locator('#path li[data-step]').count()) - 1);
  }, 120_000);

  it('takes a step by clicking, branching off the counterexample, and a reloaded link lands on the same state', async () => {
    const at = (await cursorOf(page)) - 1;
    await page.click('#back');
    await page.waitForSelector(`body[data-cursor="${at}"]`);
    const buttons = page.locator('#enabled button[data-label]');
    const choices = await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('data-label') ?? ''));
    const other = choices.find((l) => l !== 'dockerClusterController.ensureFinalizer(DockerCluster/c1)');
    expect(other).toBeDefined();
    await page.click(`#enabled button[data-label="${other}"]`);
    await page.waitForSelector(`body[data-cursor="${at + 1}"]`);
    expect(await current(page)).toBe(other);
    // The counterexample's last step is no longer ahead: this is a path of its own.
    expect(await page.locator('#path li.future').count()).toBe(0);
    expect(new URL(page.url()).searchParams.getAll('step').at(-1)).toBe(other);

    const fingerprint = await page.locator('#fingerprint').textContent();
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await shared.waitForSelector('body[data-ready="true"]');
    expect(await shared.locator('#fingerprint').textContent()).toBe(fingerprint);
    expect(await current(shared)).toBe(other);
    await shared.close();
  }, 120_000);

  it('says which step of a link cannot be taken, and why', async () => {
    const url = new URL(explorer.url);
    url.search = new URLSearchParams([
      ['variant', 'v1.9.3'],
      ['step', 'mover.pauseCluster(Cluster/c1)'],
      ['step', 'mover.pauseCluster(Cluster/c1)'],
    ]).toString();
    await page.goto(url.href);
    await page.waitForSelector('body[data-ready="true"]');
    const error = await page.locator('#error').textContent();
    expect(error).toContain('step 2 of this path, mover.pauseCluster(Cluster/c1), cannot be taken');
    expect(error).toContain(
      'mover.pauseCluster(Cluster/c1) is not enabled in state 2 (after mover.pauseCluster(Cluster/c1)): mover.pauseCluster does not offer that parameter there',
    );
    expect(await cursorOf(page)).toBe(1);
  }, 120_000);

  it('refuses requests from other origins', async () => {
    const res = await fetch(new URL('/api/model', explorer.url), {
      headers: { origin: 'http://evil.example', 'x-modelcheck-explore': '1' },
    });
    expect(res.status).toBe(403);
    const post = await fetch(new URL('/api/run?variant=v1.9.3', explorer.url), {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(post.status).toBe(403);
  });
});

describe('modelcheck explore: bad input', () => {
  it('names an unknown variant, and the variants there are', async () => {
    const run = await runCli(['explore', 'models/move.ts', '--variant', 'v9.9.9']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('model clusterctl-move has no variant v9.9.9');
    expect(run.stderr).toContain('v1.9.3, v1.9.5');
  });

  it('refuses a trace file of another model', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'modelcheck-explore-')), 'other.itf.json');
    writeFileSync(file, JSON.stringify({ '#meta': { model: 'DieHard', variant: 'default' }, vars: [], states: [] }));
    const run = await runCli(['explore', 'models/move.ts', '--trace', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`the trace file ${file} is of model DieHard, not clusterctl-move`);
  });
});

describe('modelcheck explore: stopping', () => {
  it('stops at Ctrl-C even while a search it started is running', async () => {
    const server = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.5']);
    try {
      const origin = new URL(server.url).origin;
      const headers = { origin, 'x-modelcheck-explore': '1' };
      expect((await fetch(new URL('/api/run?variant=v1.9.5', server.url), { method: 'POST', headers })).status).toBe(202);
      await new Promise((r) => setTimeout(r, 2000));
      const status = await fetch(new URL('/api/counterexamples?variant=v1.9.5', server.url), { headers }).then(
        (r) => r.json() as Promise<{ run: { status: string } }>,
      );
      expect(status.run.status).toBe('running');
      const started = Date.now();
      await server.stop();
      // The whole search takes about a minute; stopping waits for none of it.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.process.exitCode).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
