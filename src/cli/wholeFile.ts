// A file written whole or not at all: its text goes to a temporary file of this process's own
// beside it (two processes writing one file at once each write their own), which is then renamed
// over it, so a reader never sees half of it. Its folder is made if missing.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeWhole(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
