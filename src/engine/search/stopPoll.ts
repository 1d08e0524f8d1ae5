// The limits that end a search early other than its state and depth bounds: a time limit, a
// memory ceiling, and a request from outside (Ctrl-C). The search polls them every few hundred
// states, so the hot path pays one counter test per state and a clock read now and then; the
// memory is looked at only a few times a second, since reading it is a system call.
import { getHeapStatistics } from 'node:v8';
import type { IncompleteReason } from '../result.ts';

export interface StopOptions {
  /** Stop, incomplete, after this many seconds (the search and its liveness phase). */
  readonly timeoutSeconds?: number;
  /** Stop, incomplete, when the process's resident memory passes this many MiB. */
  readonly maxMemoryMiB?: number;
  /**
   * Set element 0 to a non-zero value (Atomics.store) to stop the search, incomplete, as
   * interrupted. Shared memory, so that another thread can stop a search that never yields.
   */
  readonly interrupt?: Int32Array;
}

/**
 * Besides any ceiling the user sets, a search stops when V8's heap is this full: a clean
 * "incomplete" with what was explored, rather than a crash with nothing. The frontier and the
 * model's values live in the heap; the visited set and parent links are typed arrays outside it.
 */
const HEAP_GUARD = 0.9;
const MEMORY_EVERY_MS = 200;

export class StopPoll {
  private readonly deadline: number;
  private readonly maxRss: number;
  private nextMemoryCheck = 0;

  constructor(
    private readonly options: StopOptions,
    started: number,
  ) {
    this.deadline = options.timeoutSeconds !== undefined ? started + options.timeoutSeconds * 1000 : Infinity;
    this.maxRss = options.maxMemoryMiB !== undefined ? options.maxMemoryMiB * 2 ** 20 : Infinity;
  }

  /** Why the search must stop now, or undefined to go on. */
  check(): IncompleteReason | undefined {
    const interrupt = this.options.interrupt;
    if (interrupt !== undefined && Atomics.load(interrupt, 0) !== 0) return 'interrupted';
    const now = performance.now();
    if (now >= this.deadline) return 'timeout';
    if (now < this.nextMemoryCheck) return undefined;
    this.nextMemoryCheck = now + MEMORY_EVERY_MS;
    if (process.memoryUsage.rss() > this.maxRss) return 'memory';
    const heap = getHeapStatistics();
    if (heap.used_heap_size > HEAP_GUARD * heap.heap_size_limit) return 'memory';
    return undefined;
  }
}

/** Thrown from deep inside a phase (the liveness check) to unwind it when a limit is hit. */
export class Stopped extends Error {
  constructor(readonly reason: IncompleteReason) {
    super(`the search stopped: ${reason}`);
  }
}
