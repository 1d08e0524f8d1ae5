// The TypeScript compiler, loaded once per thread and compiled by V8 once per machine. Its one
// file (typescript.js, 9 MB) takes about 0.43 s to load on this project's machines, as long as
// checking a 300-line model against modelcheck's declarations; V8's code cache, kept in the cache
// directory, brings the load to about 0.07 s (bench/README.md, twenty-fourth run). Node 22 has
// this built in (module.enableCompileCache), used where it exists; Node 20 gets the same through
// vm.Script's cachedData. A cache V8 rejects (another Node, other flags) is written again; one
// that cannot be read or written only makes the load slower.
import type ts from 'typescript';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { cacheDir } from './cacheDir.ts';
import { writeWhole } from './wholeFile.ts';

let loaded: typeof ts | undefined;
/** Called once the compiler has done its work, so that the cache holds the code that work compiled. */
let keepCode: (() => void) | undefined;

/** The compiler: on first use, loaded with its compiled code from the cache where there is one. */
export function typescript(): typeof ts {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const builtIn = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (builtIn !== undefined) {
    builtIn(join(cacheDir(), 'v8'));
    loaded = require('typescript') as typeof ts;
    return loaded;
  }
  const file = require.resolve('typescript');
  const version = (require('typescript/package.json') as { version: string }).version;
  const cacheFile = join(cacheDir(), `typescript-${version}-node${process.version}-${process.arch}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The wrapper Node puts around a CommonJS module, so that typescript.js runs as it would under require().
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as typeof ts };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  loaded = module.exports;
  if (cachedData === undefined || script.cachedDataRejected === true) {
    keepCode = () => {
      try {
        writeWhole(cacheFile, script.createCachedData());
      } catch {
        // A cache that cannot be written is only a slower next load.
      }
    };
  }
  return loaded;
}

/** After a first use of the compiler: keeps the code V8 compiled for it, if the cache did not already. */
export function keepCompiledCompiler(): void {
  keepCode?.();
  keepCode = undefined;
}
