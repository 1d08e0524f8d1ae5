// A real `modelcheck explore` process and a headless Chromium to drive it (playwright-core over
// Debian's chromium package, which .ci/run installs when it is missing). Shared by the
// end-to-end test (test/e2e/explorer.test.ts) and the script that makes the README's screenshot
// (scripts/explorerScreenshot.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Chromium is: $CHROMIUM, or Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`no Chromium at ${path}: install Debian's chromium package (.ci/run does), or name the browser in $CHROMIUM`);
  }
  return path;
}

/** Headless Chromium (in a new empty profile) with the flags this machine's closed network needs (no background connections). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ExplorerProcess {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `modelcheck explore ARGS` on a free port; resolves with its URL once it listens. `cache`:
 * its cache directory (where it keeps its searches), so that a test starts from none.
 */
export function startExplorerProcess(args: readonly string[], cache?: string): Promise<ExplorerProcess> {
  const env = cache === undefined ? process.env : { ...process.env, MODELCHECK_CACHE_DIR: cache };
  const child = spawn(process.execPath, ['bin/modelcheck.js', 'explore', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    // A server that never says where it listens is stopped, not left behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`modelcheck explore did not listen within 60 s:\n${err}${out}`));
    }, 60_000);
    child.stderr?.on('data', (c) => (err += c));
    child.stdout?.on('data', (c) => {
      out += c;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          process: child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
              child.once('exit', () => {
                clearTimeout(force);
                done();
              });
              child.kill('SIGINT');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`modelcheck explore exited with ${code} before it listened:\n${err}${out}`)));
  });
}

/** The number of steps the page shows (its path's cursor). */
export async function cursorOf(page: Page): Promise<number> {
  return Number(await page.locator('body').getAttribute('data-cursor'));
}

/** Goes to `url` and waits until the page has shown its first path. */
export async function showPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

/** Clicks "forward" until the page shows `to` steps of its path. */
export async function forwardTo(page: Page, to: number): Promise<void> {
  for (let at = await cursorOf(page); at < to; at++) {
    await page.click('#forward');
    await page.waitForSelector(`body[data-cursor="${at + 1}"]`);
  }
}

/** Starts the variant's search from the page and replays the counterexample of `property` from its first state. */
export async function replayFoundCounterexample(page: Page, property: string, timeoutMs: number): Promise<string[]> {
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('#run');
  const pick = page.locator(`button[data-counterexample="${property}"]`);
  await pick.waitFor({ timeout: timeoutMs });
  await pick.click();
  // The page showed only its initial state, already at cursor 0: wait for the replayed steps
  // themselves (a loaded machine renders them well after the click; every counterexample this
  // helper replays has steps).
  await page.locator('#path li[data-step]').nth(1).waitFor();
  await page.waitForSelector('body[data-cursor="0"]');
  return page.locator('#path li[data-step]').evaluateAll((lis) => lis.map((li) => li.firstChild?.textContent ?? ''));
}
