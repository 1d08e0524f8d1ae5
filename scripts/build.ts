// `npm run build` (and `npm pack`, through prepack): dist/, the published package's JavaScript
// and declarations. The compiler writes what src/ compiles to; the explorer's page (plain
// HTML, CSS and a browser script the server sends as they are) is copied beside it, and so is
// the one file of mermaid the page loads, with mermaid's licence (MIT): the package ships that
// file rather than depend on mermaid, which installs 160 MB and a hundred packages, some asking
// for Node 22. dist/ is emptied first so that a module deleted from src/ does not live on in the
// tarball.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
cpSync(`${root}src/explore/page`, `${root}dist/explore/page`, { recursive: true });
const mermaid = dirname(createRequire(import.meta.url).resolve('mermaid/package.json'));
mkdirSync(`${root}dist/explore/vendor`, { recursive: true });
cpSync(join(mermaid, 'dist', 'mermaid.min.js'), `${root}dist/explore/vendor/mermaid.min.js`);
cpSync(join(mermaid, 'LICENSE'), `${root}dist/explore/vendor/mermaid.LICENSE`);
