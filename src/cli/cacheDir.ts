// Where modelcheck keeps what it can compute again but would rather not: type-check answers
// (typecheckCache.ts) and the compiler's compiled code (compiler.ts).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** MODELCHECK_CACHE_DIR, else the user's cache directory (XDG). */
export function cacheDir(): string {
  const own = process.env.MODELCHECK_CACHE_DIR;
  if (own) return resolve(own);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'modelcheck');
}
