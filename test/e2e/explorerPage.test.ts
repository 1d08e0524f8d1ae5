/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (The functions the browser runs, page.evaluate's, read its document.)
// The explorer's page on a model small enough to predict by hand (test/fixtures/explore/shelf.ts):
// what it marks when a step removes an object or appends to a list, "only what changed", the
// field filter, the keyboard, and a watch expression's values along a path. A real server
// process and headless Chromium, as in explorer.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cursorOf, launchChromium, showPage, startExplorerProcess, type ExplorerProcess } from '../helpers/explorerBrowser.ts';

let explorer: ExplorerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  explorer = await startExplorerProcess(['test/fixtures/explore/shelf.ts']);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await explorer?.stop();
});

/** Opens the page at the path of `steps` from the initial state. */
async function open(p: Page, steps: readonly string[], extra: [string, string][] = []): Promise<void> {
  const url = new URL(explorer.url);
  url.search = new URLSearchParams([['variant', 'default'], ...steps.map((s): [string, string] => ['step', s]), ...extra]).toString();
  await showPage(p, url.href);
}

const texts = (p: Page, selector: string) => p.locator(selector).evaluateAll((es) => es.map((e) => e.textContent ?? ''));

describe('modelcheck explore: what a step changed', () => {
  it('strikes out an object the step removed, and marks only the event it appended', async () => {
    await open(page, ['take(a)']);
    // shelf a is gone from the state: shown struck out, where it was, with its fields.
    const gone = page.locator('[data-subject="shelf a"]');
    expect(await gone.getAttribute('class')).toContain('removed');
    expect(await gone.locator('h4').textContent()).toBe('shelf a (removed by this step)');
    expect(await texts(page, '[data-subject="shelf a"] td.field')).toEqual(['finalizers', 'label', 'metadata.deletionTimestamp']);
    // shelf b is untouched: not removed, nothing marked.
    expect(await page.locator('[data-subject="shelf b"]').getAttribute('class')).not.toContain('removed');
    expect(await page.locator('[data-subject="shelf b"] .changed').count()).toBe(0);
    // The watcher's list gained one event: that item is marked, the two before it are not.
    expect(await texts(page, '[data-subject="watcher events"] li')).toEqual(['ADDED a', 'ADDED b', 'DELETED a']);
    expect(await texts(page, '[data-subject="watcher events"] li.added')).toEqual(['DELETED a']);
    expect(await page.locator('[data-subject="watcher events"] .value.changed').count()).toBe(0);
  });

  it('marks a changed field, and shows only what changed when asked', async () => {
    await open(page, ['relabel(b)']);
    const label = page.locator('[data-subject="shelf b"] tr[data-field="label"]');
    expect(await label.getAttribute('class')).toContain('changed');
    expect(await label.locator('td.value').textContent()).toBe('relabelled');
    expect(await page.locator('[data-subject="shelf a"]').count()).toBe(1);

    await page.check('#only-changes');
    // Only shelf b's label and the watcher's events: shelf a and b's other fields are hidden.
    expect(await page.locator('[data-subject="shelf a"]').count()).toBe(0);
    expect(await texts(page, '[data-subject="shelf b"] td.field')).toEqual(['label']);
    expect(await texts(page, '[data-subject="watcher events"] li.added')).toEqual(['MODIFIED b']);
    await page.uncheck('#only-changes');
    expect(await texts(page, '[data-subject="shelf b"] td.field')).toEqual(['finalizers', 'label', 'metadata.deletionTimestamp']);
  });

  it('filters fields by name', async () => {
    await open(page, []);
    await page.fill('#filter', 'final');
    expect(await texts(page, '#panels td.field')).toEqual(['finalizers', 'finalizers']);
    expect(await page.locator('[data-subject="watcher events"]').count()).toBe(0);
    await page.fill('#filter', 'deletionTimestamp');
    expect(await texts(page, '#panels td.field')).toEqual(['metadata.deletionTimestamp', 'metadata.deletionTimestamp']);
    // A subject's name matches too: all its fields are shown.
    await page.fill('#filter', 'shelf b');
    expect(await texts(page, '#panels td.field')).toEqual(['finalizers', 'label', 'metadata.deletionTimestamp']);
    await page.fill('#filter', 'nothing like it');
    expect(await page.locator('#panels').textContent()).toBe('No field or subject matches "nothing like it".');
    await page.fill('#filter', '');
  });
});

describe('modelcheck explore: keys', () => {
  it('takes a step with Enter and keeps the keyboard on the steps; arrows and j/k go back and forward', async () => {
    await open(page, []);
    expect(await cursorOf(page)).toBe(0);
    // The enabled steps, in the order of the actions and their parameters.
    expect(await texts(page, '#enabled button')).toEqual(['take(a)', 'take(b)', 'relabel(a)', 'relabel(b)']);
    await page.focus('#enabled button[data-label="relabel(a)"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-cursor="1"]');
    // The steps of the new state are new buttons: the keyboard is on the one in the same place
    // (relabel(a) is gone, relabel(b) took its place), not dropped to the page.
    expect(await texts(page, '#enabled button')).toEqual(['take(a)', 'take(b)', 'relabel(b)']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-label'))).toBe('relabel(b)');
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-cursor="2"]');

    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('body[data-cursor="1"]');
    await page.keyboard.press('k');
    await page.waitForSelector('body[data-cursor="0"]');
    await page.keyboard.press('j');
    await page.waitForSelector('body[data-cursor="1"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('body[data-cursor="2"]');
    expect(new URL(page.url()).searchParams.getAll('step')).toEqual(['relabel(a)', 'relabel(b)']);
    // Typing in a field is typing, not a key for the path.
    await page.focus('#filter');
    await page.keyboard.press('k');
    expect(await cursorOf(page)).toBe(2);
    await page.fill('#filter', '');
  });

  it("reaches the path's entries with Tab, and goes to one with Enter", async () => {
    await open(page, ['relabel(a)', 'take(b)']);
    const entries = page.locator('#path li[data-step] > button');
    expect(await entries.count()).toBe(3);
    await page.focus('#back');
    // back, forward (disabled: skipped), the link, then the path's entries in order.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('initial state');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-cursor="1"]');
    // The keyboard stays on the path, on the entry now current.
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.classList.contains('current'))).toBe(true);
  });
});

describe('modelcheck explore: watch expressions', () => {
  it("shows an expression's value at every state of the path, and keeps it in the link", async () => {
    await open(page, ['relabel(a)', 'take(b)']);
    await page.fill('#watch', 'Object.keys(state.items).length + " on the shelf, last: " + view["watcher events"].at(-1)');
    await page.click('#watch-form button[type="submit"]');
    await page.waitForSelector('body[data-watch="3"]');
    expect(await texts(page, '#path .watch-value')).toEqual([
      '= 2 on the shelf, last: ADDED b',
      '= 2 on the shelf, last: MODIFIED a',
      '= 1 on the shelf, last: DELETED b',
    ]);
    expect(await page.locator('#watch-now').textContent()).toBe('at state 3: 1 on the shelf, last: DELETED b');
    // Going back keeps the values, and says the one at the state shown.
    await page.click('#back');
    await page.waitForSelector('body[data-cursor="1"]');
    await page.waitForSelector('body[data-watch="3"]');
    expect(await page.locator('#watch-now').textContent()).toBe('at state 2: 2 on the shelf, last: MODIFIED a');
    // The link (to the path as far as it is shown, two states) carries the expression.
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await shared.waitForSelector('body[data-watch="2"]');
    expect(await shared.locator('#watch').inputValue()).toContain('Object.keys(state.items).length');
    await shared.close();
  });

  it('reads the state and cannot change it; an error is shown at the state where it happened', async () => {
    await open(page, ['take(a)'], [['watch', 'state.items.a.label']]);
    await page.waitForSelector('body[data-watch="2"]');
    expect(await texts(page, '#path .watch-value')).toEqual(['= first', "= error: Cannot read properties of undefined (reading 'label')"]);
    expect(await page.locator('#path .watch-value.error').count()).toBe(1);
    await open(page, [], [['watch', 'state.events.push("forged")']]);
    await page.waitForSelector('body[data-watch="1"]');
    expect(await texts(page, '#path .watch-value')).toEqual(['= error: a watch expression reads the state and cannot change it']);
    // The state is as it was.
    expect(await texts(page, '[data-subject="watcher events"] li')).toEqual(['ADDED a', 'ADDED b']);
  });
});
