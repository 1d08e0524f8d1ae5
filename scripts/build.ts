// `npm run build` (and `npm pack`, through prepack): dist/, the published package's JavaScript
// and declarations. The compiler writes what src/ compiles to; the explorer's page (plain
// HTML, CSS and a browser script the server sends as they are) is copied beside it. dist/ is
// emptied first so that a module deleted from src/ does not live on in the tarball.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
cpSync(`${root}src/explore/page`, `${root}dist/explore/page`, { recursive: true });
