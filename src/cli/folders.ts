// Looking up from a folder, as Node and the compiler look for package.json, node_modules and
// tsconfig.json: the folder itself, then each one above it, to the root.
import { dirname } from 'node:path';

/** `dir` and every folder above it, nearest first. */
export function folderAndAbove(dir: string): string[] {
  const out = [dir];
  for (let d = dir; dirname(d) !== d; d = dirname(d)) out.push(dirname(d));
  return out;
}
