// npm run docs:screenshot: docs/explorer.png (a window 1440 px wide) and docs/explorer-narrow.png
// (800 px), the pictures of `modelcheck explore` that README.md and docs/cli.md show: the move
// model's v1.9.3 counterexample to NoFinalizerResurrection, at the step that violates it. The
// counterexample is found by the search the page starts, as a user would find it, by a server
// with a cache directory of its own (no search kept from an earlier one); needs Chromium
// (Debian's chromium package, or $CHROMIUM).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardTo, launchChromium, replayFoundCounterexample, showPage, startExplorerProcess } from '../test/helpers/explorerBrowser.ts';

const SHOTS = [
  { file: 'docs/explorer.png', width: 1440, height: 900 },
  { file: 'docs/explorer-narrow.png', width: 800, height: 1100 },
];
const cache = mkdtempSync(join(tmpdir(), 'modelcheck-screenshot-'));
const explorer = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.3'], cache);
const browser = await launchChromium().catch(async (e: unknown) => {
  await explorer.stop();
  throw e;
});
try {
  const page = await browser.newPage({ viewport: { width: SHOTS[0].width, height: SHOTS[0].height } });
  await page.goto(explorer.url);
  const labels = await replayFoundCounterexample(page, 'NoFinalizerResurrection', 1_800_000);
  await forwardTo(page, labels.length - 1);
  // The search is over (its counterexamples all listed) before the pictures are taken.
  await page.waitForSelector('body[data-run="done"]', { timeout: 1_800_000 });
  const url = page.url();
  for (const shot of SHOTS) {
    const p = await browser.newPage({ viewport: { width: shot.width, height: shot.height } });
    await showPage(p, url);
    // The replayed counterexample, as the first page shows it: picked from the list again.
    await p.locator('button[data-counterexample="NoFinalizerResurrection"]').click();
    await p.waitForSelector('body[data-cursor="0"]');
    await forwardTo(p, labels.length - 1);
    await p.locator('#diagram svg').waitFor();
    await p.screenshot({ path: shot.file, fullPage: false });
    console.log(`wrote ${shot.file} (${shot.width}x${shot.height}): ${p.url()}`);
    await p.close();
  }
} finally {
  await browser.close();
  await explorer.stop();
}
