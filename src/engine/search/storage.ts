// Where a search keeps the states it has yet to expand (stateQueue.ts), by memory pressure:
// as objects while the thread's heap has room (the fastest: no encoding; a packed state as its
// words in a typed array, stateQueue.ts), as bytes once it is
// half full or holds a gigabyte (a tenth of the memory or less, for the time it takes to write
// and rebuild them), and in a file once memory is short: past 70% of the heap, or of the process's memory budget
// (--max-memory, else 70% of the machine's). A search whose frontier does not fit in memory
// then still finishes, with the same results: only the visited set's fingerprints and the
// trace log must stay in memory. TLC keeps its queue on disk the same way (DiskStateQueue).
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';

/**
 * The memory this process may use: the machine's, or less where a control group limits it (a
 * container's memory limit, a Kubernetes pod's), which os.totalmem() does not see.
 */
export function memoryAvailable(): number {
  const limit = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  return limit !== undefined && limit > 0 ? Math.min(totalmem(), limit) : totalmem();
}
export const OBJECTS = 0;
export const BYTES = 1;
export const DISK = 2;

/** auto: by memory pressure, as above; the others hold every state in one tier (for tests and measurements). */
export type StorageMode = 'auto' | 'objects' | 'bytes' | 'disk';

export interface StorageOptions {
  readonly storage?: StorageMode;
  /** Where spill files go (default: the system's temporary directory); removed when the search ends. */
  readonly workDir?: string;
  readonly maxMemoryMiB?: number;
  /** Bytes per chunk of a queue, the unit written to and read from a spill file (default 4 MiB). */
  readonly chunkBytes?: number;
}

/** What the report says of the frontier's storage. */
export interface StorageStats {
  /** States written as bytes (in memory or on disk), and their bytes. */
  readonly encodedStates: number;
  readonly encodedBytes: number;
  /** Bytes written to spill files. */
  readonly spilledBytes: number;
}

const BYTES_AT = 0.5;
/**
 * The heap a thread's frontier may take as objects, whatever the machine: past it, bytes. On a
 * large machine half the heap is many gigabytes, and a frontier of objects takes about ten
 * times its bytes (bench/README.md: the large configuration, case 9, peaked at 2.6 GiB with its
 * widest levels as objects); below it, as on the main command's variants, nothing changes.
 */
const OBJECTS_HEAP_LIMIT = 2 ** 30;
const DISK_AT = 0.7;
const EVERY_MS = 200;

/**
 * The tier for a thread whose heap holds `heapUsed` of `heapLimit` bytes, in a process resident
 * in `rss` of its budget of `rssBudget` bytes.
 */
export function tierFor(heapUsed: number, heapLimit: number, rss: number, rssBudget: number): number {
  const pressure = Math.max(heapUsed / heapLimit, rss / rssBudget);
  if (pressure >= DISK_AT) return DISK;
  return pressure >= BYTES_AT || heapUsed >= OBJECTS_HEAP_LIMIT ? BYTES : OBJECTS;
}

export class Storage {
  readonly chunkBytes: number;
  private readonly forced: number | undefined;
  private readonly rssBudget: number;
  private current = OBJECTS;
  private calls = 0;
  private nextCheck = 0;
  private dir: string | undefined;
  private files = 0;
  encodedStates = 0;
  encodedBytes = 0;
  spilledBytes = 0;

  constructor(private readonly options: StorageOptions = {}) {
    const mode = options.storage ?? 'auto';
    this.forced = mode === 'objects' ? OBJECTS : mode === 'bytes' ? BYTES : mode === 'disk' ? DISK : undefined;
    this.chunkBytes = options.chunkBytes ?? 1 << 22;
    this.rssBudget = options.maxMemoryMiB !== undefined ? options.maxMemoryMiB * 2 ** 20 : DISK_AT * memoryAvailable();
  }

  /** Where the next state pushed goes: OBJECTS, BYTES or DISK (its bytes, once a chunk is full). */
  tier(): number {
    if (this.forced !== undefined) return this.forced;
    // The clock is read every 256 calls, and memory at most every EVERY_MS.
    if ((++this.calls & 255) !== 0) return this.current;
    const now = performance.now();
    if (now < this.nextCheck) return this.current;
    this.nextCheck = now + EVERY_MS;
    return this.measure();
  }

  /**
   * Whether what can leave memory for files should, now (memory measured at once): past the
   * disk tier's threshold, or with `--storage disk`. For the trace log, at level boundaries.
   */
  toDisk(): boolean {
    return (this.forced ?? this.measure()) === DISK;
  }

  private measure(): number {
    const heap = getHeapStatistics();
    // Never back to a lower tier within a search: the pressure that sent states there is
    // still held by the states already there.
    const tier = tierFor(heap.used_heap_size, heap.heap_size_limit, process.memoryUsage.rss(), this.rssBudget);
    this.current = Math.max(this.current, tier);
    return this.current;
  }

  encoded(bytes: number): void {
    this.encodedStates++;
    this.encodedBytes += bytes;
  }

  /** A new spill file, in this search's work directory (made on first use). */
  newFile(): SpillFile {
    this.dir ??= mkdtempSync(join(this.options.workDir ?? tmpdir(), 'modelcheck-'));
    return new SpillFile(join(this.dir, `queue-${this.files++}`), this);
  }

  /** Removes the work directory and whatever is left in it; the search is over. */
  close(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  get stats(): StorageStats {
    return { encodedStates: this.encodedStates, encodedBytes: this.encodedBytes, spilledBytes: this.spilledBytes };
  }
}

/** One queue's spill file: chunks appended, read back in order, the file removed when done. */
export class SpillFile {
  private fd: number | undefined;
  private end = 0;

  constructor(
    private readonly path: string,
    private readonly storage: Storage,
  ) {}

  /** Appends `bytes`; returns where they start. */
  append(bytes: Uint8Array): number {
    this.fd ??= openSync(this.path, 'w+');
    const at = this.end;
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
    this.end += bytes.length;
    this.storage.spilledBytes += bytes.length;
    return at;
  }

  /** The `length` bytes appended at `offset`. */
  read(offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) done += readSync(this.fd!, out, done, length - done, offset + done);
    return out;
  }

  /** Removes the file. */
  remove(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }
}
