// npm run docs:screenshot: docs/explorer.png, the README's picture of `modelcheck explore` on the
// move model's v1.9.3 counterexample to NoFinalizerResurrection, at the step that violates it.
// The counterexample is found by the search the page starts, as a user would find it; needs
// Chromium (Debian's chromium package, or $CHROMIUM).
import { forwardTo, launchChromium, replayFoundCounterexample, startExplorerProcess } from '../test/helpers/explorerBrowser.ts';

const OUT = 'docs/explorer.png';
const explorer = await startExplorerProcess(['models/move.ts', '--variant', 'v1.9.3']);
const browser = await launchChromium().catch(async (e: unknown) => {
  await explorer.stop();
  throw e;
});
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(explorer.url);
  const labels = await replayFoundCounterexample(page, 'NoFinalizerResurrection', 1_800_000);
  await forwardTo(page, labels.length - 1);
  await page.locator('#diagram svg').waitFor();
  await page.screenshot({ path: OUT, fullPage: false });
  console.log(`wrote ${OUT}: ${page.url()}`);
} finally {
  await browser.close();
  await explorer.stop();
}
