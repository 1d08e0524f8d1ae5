// Where the CLI's own modules are, and how a model finds them. A checkout of the repository runs
// its TypeScript sources (what its tests test, with no build step); an installed package has
// only dist/, the compiled JavaScript that `npm run build` wrote (scripts/build.ts).
import { existsSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

const SOURCES = existsSync(new URL('../src/cli/main.ts', import.meta.url));

/** The URL of one of the CLI's modules, `path` relative to src/ without its extension. */
export function own(path) {
  return new URL(SOURCES ? `../src/${path}.ts` : `../dist/${path}.js`, import.meta.url).href;
}

/**
 * Called first by every thread (worker threads do not inherit the main thread's loaders): models
 * are TypeScript, so the tsx loader is registered; then resolveHook.js, by which, in a checkout,
 * a model's `import 'modelcheck'` gets the sources the CLI runs, a model imported again after
 * an edit (--watch) gets its local modules read again too, and a model's immutable.js Records
 * are FlatRecords (src/engine/values/immutableForModels.ts).
 */
export function registerLoaders() {
  registerTsx();
  registerModelHooks();
}

/** resolveHook.js alone: for a process that has the tsx loader already (the bench's, run with --import tsx). */
export function registerModelHooks() {
  registerHooks('./resolveHook.js', import.meta.url, {
    data: { sources: SOURCES, flatRecords: process.env.MODELCHECK_RECORDS !== 'immutable' },
  });
}
