// One variant's checkpoint on disk: a JSON header (the search's small books) followed by the
// raw bytes of its typed arrays (the trace log, the state graph), and a SHA-256 of all of it.
// Written to a temporary file beside the real one, flushed to the disk, then renamed over it:
// a crash at any moment leaves either the previous checkpoint or the new one, whole. A file
// that does not end with the digest of its contents is refused, never half read.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const MAGIC = 'modelcheck checkpoint 1\n';
const DIGEST_BYTES = 32;

export type Section = Int32Array | Uint32Array | Uint16Array | Uint8Array;
export type SectionType = 'i32' | 'u32' | 'u16' | 'u8';

const TYPES: Record<SectionType, { bytes: number; make: (b: ArrayBuffer) => Section }> = {
  i32: { bytes: 4, make: (b) => new Int32Array(b) },
  u32: { bytes: 4, make: (b) => new Uint32Array(b) },
  u16: { bytes: 2, make: (b) => new Uint16Array(b) },
  u8: { bytes: 1, make: (b) => new Uint8Array(b) },
};

function typeOf(a: Section): SectionType {
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Uint16Array) return 'u16';
  return 'u8';
}

/**
 * A section: its element type and length, and its contents as parts in order (a chunked array
 * is written a chunk at a time, without joining it).
 */
export interface SectionParts {
  readonly type: SectionType;
  readonly length: number;
  readonly parts: Iterable<Section>;
}

/** A section of one array. */
export function whole(a: Section): SectionParts {
  return { type: typeOf(a), length: a.length, parts: [a] };
}

/** Why a checkpoint file cannot be used: missing, damaged, or of another format. */
export class CheckpointUnreadable extends Error {}

/**
 * Writes `header` and the named sections to `file` atomically. `header` is plain JSON data;
 * each section is the concatenation of its parts, all of one element type.
 */
export function writeCheckpointFile(file: string, header: unknown, sections: Readonly<Record<string, SectionParts>>): number {
  const layout = Object.entries(sections).map(([name, s]) => ({ name, type: s.type, length: s.length }));
  const head = Buffer.from(JSON.stringify({ header, sections: layout }), 'utf8');
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  const hash = createHash('sha256');
  let written = 0;
  const put = (b: Uint8Array): void => {
    hash.update(b);
    let off = 0;
    while (off < b.length) off += writeSync(fd, b, off, b.length - off);
    written += b.length;
  };
  try {
    put(Buffer.from(MAGIC, 'latin1'));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(head.length);
    put(len);
    put(head);
    for (const s of Object.values(sections)) {
      let length = 0;
      for (const p of s.parts) {
        if (typeOf(p) !== s.type) throw new Error(`checkpoint: a part of type ${typeOf(p)} in a section of ${s.type}`);
        put(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
        length += p.length;
      }
      if (length !== s.length) throw new Error(`checkpoint: a section of ${s.length} elements was given ${length}`);
    }
    const digest = hash.digest();
    let off = 0;
    while (off < digest.length) off += writeSync(fd, digest, off, digest.length - off);
    written += digest.length;
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
  syncDirectory(dirname(file));
  return written;
}

/** Flushes a directory's entries (the rename), where the platform allows it. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not every platform can open or flush a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads a checkpoint file written by writeCheckpointFile: its header and its sections. */
export function readCheckpointFile(file: string): { header: unknown; sections: Record<string, Section> } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new CheckpointUnreadable(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return readOpen(fd, file);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads each section straight into an array of its own (aligned for its element type), hashing
 * as it goes, so that a large checkpoint is held once, not twice, while it is read.
 */
function readOpen(fd: number, file: string): { header: unknown; sections: Record<string, Section> } {
  const size = fstatSync(fd).size;
  const magic = Buffer.from(MAGIC, 'latin1');
  const notOne = () => new CheckpointUnreadable(`${file} is not a modelcheck checkpoint (or one of another format)`);
  if (size < magic.length + 4 + DIGEST_BYTES) throw notOne();
  const hash = createHash('sha256');
  let off = 0;
  const take = (into: Uint8Array): void => {
    let got = 0;
    while (got < into.length) {
      const n = readSync(fd, into, got, into.length - got, off + got);
      if (n === 0) throw new CheckpointUnreadable(`${file} is damaged: it ends early`);
      got += n;
    }
    off += into.length;
    hash.update(into);
  };
  const start = Buffer.alloc(magic.length + 4);
  take(start);
  if (!start.subarray(0, magic.length).equals(magic)) throw notOne();
  const headLength = start.readUInt32LE(magic.length);
  if (off + headLength + DIGEST_BYTES > size) throw new CheckpointUnreadable(`${file} is damaged: it ends early`);
  const head = Buffer.alloc(headLength);
  take(head);
  let parsed: { header: unknown; sections: { name: string; type: SectionType; length: number }[] };
  try {
    parsed = JSON.parse(head.toString('utf8'));
  } catch {
    throw new CheckpointUnreadable(`${file} is damaged: its header is not JSON`);
  }
  const sections: Record<string, Section> = {};
  for (const s of parsed.sections) {
    const t = TYPES[s.type];
    const bytes = s.length * (t?.bytes ?? 0);
    if (t === undefined || off + bytes + DIGEST_BYTES > size) throw new CheckpointUnreadable(`${file} is damaged: its sections do not fit`);
    const own = new ArrayBuffer(bytes);
    take(new Uint8Array(own));
    sections[s.name] = t.make(own);
  }
  const digest = Buffer.alloc(DIGEST_BYTES);
  readSync(fd, digest, 0, DIGEST_BYTES, off);
  if (off + DIGEST_BYTES !== size || !hash.digest().equals(digest)) {
    throw new CheckpointUnreadable(`${file} is damaged: its contents do not match their digest`);
  }
  return { header: parsed.header, sections };
}
