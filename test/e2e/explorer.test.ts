/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (The functions the browser runs, page.evaluate's, read its document.)
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
  showPage,
  startExplorerProcess,
  type ExplorerProcess,
} from '../helpers/explorerBrowser.ts';
import { runCli } from '../helpers/runCli.ts';

const FINALIZER = 'dockercluster.infrastructure.cluster.x-k8s.io';
const SUBJECT = 'source DockerCluster/c1';

let explorer: ExplorerProcess;
let browser: Browser;
let page: Page;
/** The cache directory of this file's servers: where they keep their searches. */
const cache = mkdtempSync(join(tmpdir(), 'modelcheck-explore-cache-'));

beforeAll(async () => {
  // One after the other: a browser that fails to start must not leave the server running.
  explorer = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.3'], cache);
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

    // The diagram marks the messages of the step shown (numbered as the path is, from 1), and a
    // click on another step's message goes to that step.
    const markedSteps = () =>
      page.locator('#diagram text.current-step').evaluateAll((ts) => [...new Set(ts.map((t) => t.getAttribute('data-step')))]);
    await expect.poll(markedSteps).toEqual([String(ensure + 1)]);
    await page
      .locator(`#diagram text[data-step="${removal + 1}"]`)
      .first()
      .click();
    await page.waitForSelector(`body[data-cursor="${removal}"]`);
    expect(await current(page)).toBe('mover.removeFinalizers(DockerCluster/c1)');
    await expect.poll(markedSteps).toEqual([String(removal + 1)]);
    // Zoom: fitted to its box at first, then at its natural size.
    expect(await page.locator('body').getAttribute('data-zoom')).toBe('fit');
    const box = await page.locator('#diagram').evaluate((d) => d.clientWidth);
    expect(await page.locator('#diagram svg').evaluate((svg) => svg.getBoundingClientRect().width)).toBeLessThanOrEqual(box);
    await page.click('#zoom-actual');
    const natural = await page.locator('#diagram svg').evaluate((svg) => (svg as SVGSVGElement).viewBox.baseVal.width);
    const actual = await page.locator('#diagram svg').evaluate((svg) => svg.getBoundingClientRect().width);
    expect(Math.abs(actual - natural)).toBeLessThanOrEqual(1);
    await page.click('#zoom-fit');
    await forwardTo(page, ensure);
  }, 1_200_000);

  it('fits windows 800 and 1280 px wide: no sideways scrolling, no field name broken, the path and its enabled steps in view', async () => {
    for (const width of [800, 1280]) {
      const narrow = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await showPage(narrow, page.url());
        await narrow.waitForSelector('#diagram svg');
        const fit = await narrow.evaluate(() => {
          const root = document.documentElement;
          // A field name is on one line: its text's boxes are one.
          const broken = [...document.querySelectorAll('#panels td.field')].filter((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            return range.getClientRects().length !== 1 || td.scrollWidth > td.clientWidth;
          });
          const top = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY;
          return {
            overflow: root.scrollWidth - root.clientWidth,
            fields: document.querySelectorAll('#panels td.field').length,
            broken: broken.map((td) => td.textContent),
            current: top('#path li.current'),
            enabled: top('#enabled button'),
          };
        });
        expect(fit.overflow, `${width} px`).toBe(0);
        expect(fit.fields).toBeGreaterThan(20);
        expect(fit.broken, `${width} px`).toEqual([]);
        expect(fit.current, `${width} px`).toBeLessThan(900);
        expect(fit.enabled, `${width} px`).toBeLessThan(900);
      } finally {
        await narrow.close();
      }
    }
  }, 120_000);

  it('offers the distinct initial states, each named by what sets it apart, and starts a path from the one picked', async () => {
    const picker = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await showPage(picker, new URL('/?variant=v1.9.3', explorer.url).href);
      // 27: as many as a search of v1.9.3 stores at depth 1 (modelcheck models/move.ts --variant
      // v1.9.3 --max-depth 1: 27 distinct states); init() gives 81, the same 27 three times.
      await expect.poll(() => picker.locator('#init option').count()).toBe(27);
      expect(await picker.locator('#init-picker').isVisible()).toBe(true);
      const origin = new URL(explorer.url).origin;
      const described = await fetch(new URL('/api/initials?variant=v1.9.3', explorer.url), {
        headers: { origin, 'x-modelcheck-explore': '1' },
      }).then((r) => r.json() as Promise<{ initials: { label: string; differences: { field: string; value: string }[] }[] }>);
      const sixth = described.initials[5];
      expect(sixth.label).toBe('init(6)');
      expect(sixth.differences.length).toBeGreaterThan(0);
      expect(await picker.locator('#init option').nth(5).textContent()).toBe(
        `init(6): ${sixth.differences.map((d) => `${d.field} = ${d.value}`).join('; ')}`,
      );
      await picker.selectOption('#init', '5');
      await picker.waitForFunction(() => new URL(location.href).searchParams.get('init') === '5');
      await expect.poll(() => picker.locator('#path li[data-step="0"] > button').textContent()).toBe('init(6)');
      expect(await picker.locator('#init-differences').textContent()).toContain('Initial state init(6) of 27: ');
      // The state shown has the values the picker named.
      for (const d of sixth.differences) {
        const space = d.field.lastIndexOf(' ');
        const [subject, field] = [d.field.slice(0, space), d.field.slice(space + 1)];
        expect(await picker.locator(`[data-subject="${subject}"] tr[data-field="${field}"] td.value`).textContent(), d.field).toBe(d.value);
      }
    } finally {
      await picker.close();
    }
  }, 120_000);

  it("marks a liveness counterexample's cycle: the state it goes back to, and the way back after the last step", async () => {
    // The search run by the first test found it, once done: a lasso is found after the states
    // are (the invariants' counterexamples are listed as they are found). Its cycle start is the
    // run's, read from the API.
    await page.waitForSelector('body[data-run="done"]', { timeout: 900_000 });
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
    // The header says what is replayed, and that the variant is expected to violate it; the
    // property is marked, its value the search's (a lasso violates it as a whole behaviour).
    const replaying = page.locator('#replaying');
    expect(await replaying.isVisible()).toBe(true);
    expect(await replaying.textContent()).toBe(
      `Replaying EveryMovedObjectIsEventuallyRemoved (expected): ${lasso.steps.length} steps, then back to state ${lasso.loop + 1} for ever; from the search.`,
    );
    const marked = page.locator('#properties li.replayed');
    expect(await marked.getAttribute('data-property')).toBe('EveryMovedObjectIsEventuallyRemoved');
    expect(await marked.locator('.replay-note').textContent()).toBe('(replaying its counterexample: this lasso violates it)');
    expect(await page.locator('#expectations').textContent()).toContain('EveryMovedObjectIsEventuallyRemoved');
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
    // Off its path, nothing is said to be replayed.
    expect(await page.locator('#replaying').isVisible()).toBe(false);
    expect(await page.locator('#properties li.replayed').count()).toBe(0);

    // Back to the end of NoFinalizerResurrection's counterexample, where the next test starts.
    await page.locator('button[data-counterexample="NoFinalizerResurrection"]').click();
    await page.waitForSelector('body[data-cursor="0"]');
    await forwardTo(page, (await page.locator('#path li[data-step]').count()) - 1);
  }, 1_000_000);

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
    await showPage(shared, page.url());
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
    await showPage(page, url.href);
    const error = await page.locator('#error').textContent();
    expect(error).toContain('step 2 of this path, mover.pauseCluster(Cluster/c1), cannot be taken');
    expect(error).toContain(
      'mover.pauseCluster(Cluster/c1) is not enabled in state 2 (after mover.pauseCluster(Cluster/c1)): mover.pauseCluster does not offer that parameter there',
    );
    expect(await cursorOf(page)).toBe(1);
  }, 120_000);

  it("offers a restarted server's page the counterexamples the search from the page found, kept in the cache directory", async () => {
    const again = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.3'], cache);
    const p = await browser.newPage();
    try {
      await showPage(p, again.url);
      // Without a search: the first server's, kept.
      expect(await p.locator('body').getAttribute('data-run')).toBe('kept-done');
      expect(await p.locator('#run-status').textContent()).toMatch(
        /^kept: violated: [\d,]+ distinct states, depth \d+; \d+ counterexample\(s\)$/,
      );
      const pick = p.locator('button[data-counterexample="NoFinalizerResurrection"]');
      expect(await p.locator('#counterexamples li', { has: pick }).locator('.source').textContent()).toMatch(
        /^expected; a search kept from /,
      );
      await pick.click();
      await p.locator('#path li[data-step]').nth(1).waitFor();
      await forwardTo(p, (await p.locator('#path li[data-step]').count()) - 1);
      expect(await current(p)).toBe('dockerClusterController.ensureFinalizer(DockerCluster/c1)');
      expect(await p.locator('li[data-property="NoFinalizerResurrection"]').getAttribute('data-value')).toBe('violated');
    } finally {
      await p.close();
      await again.stop();
    }
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
  it('cancels a search from the page, keeping what it had found, and a restarted server offers it as cancelled', async () => {
    const own = mkdtempSync(join(tmpdir(), 'modelcheck-explore-cache-'));
    const server = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.5'], own);
    const p = await browser.newPage();
    try {
      await showPage(p, server.url);
      await p.click('#run');
      await p.waitForSelector('body[data-run="running"]');
      await p.locator('#cancel').click();
      await p.waitForSelector('body[data-run="cancelled"]', { timeout: 30_000 });
      expect(await p.locator('#cancel').isVisible()).toBe(false);
      expect(await p.locator('#run').textContent()).toBe('search again');
      expect(await p.locator('#run-status').textContent()).toMatch(
        /^cancelled after [\d,]+ distinct states, depth \d+; \d+ counterexample\(s\)$/,
      );
    } finally {
      await p.close();
      await server.stop();
    }
    const again = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.5'], own);
    const q = await browser.newPage();
    try {
      await showPage(q, again.url);
      expect(await q.locator('body').getAttribute('data-run')).toBe('kept-cancelled');
      expect(await q.locator('#run-status').textContent()).toMatch(/^kept: cancelled after /);
    } finally {
      await q.close();
      await again.stop();
    }
  }, 120_000);

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
