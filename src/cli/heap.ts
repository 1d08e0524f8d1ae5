// How fast V8 lets a thread's heap grow. After each full collection V8 sets the next limit at a
// multiple of what survived, of its own choosing (up to several times it on a heap that
// allocates fast, as a search does: every successor is a new immutable state, most of them
// garbage at once). With gigabytes of headroom that lets garbage pile up to several times the
// live states. A fixed factor of 1.25 collects more often and keeps the peak near what is live:
// on the bench's move case 6, 418 MiB against 696, in 35.3 s against 35.9 (bench/README.md).
// V8's flags are the process's: set once, before the search threads start.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 25;

/**
 * MiB of each of the young generation's semi-spaces, where every new object starts. A search
 * makes mostly short-lived objects (successors that are already known, the steps to build them),
 * and V8's default (16 MiB) collects them so often that scavenges took a quarter of the time on
 * LamportMutex. Measured (bench/README.md, eighth run), whole runs with 16 / 32 / 64: the main
 * command 187 / 167 / 165 s at a peak of 971 / 1,100 / 1,359 MiB; LamportMutex (one worker)
 * about 34.5 / 32.5 / 31.5 s. 32 takes most of the gain for a third of the memory. Worker threads
 * take the flag when they start. MODELCHECK_SEMI_SPACE overrides it, for an A/B.
 */
export const SEMI_SPACE_MIB = Number(process.env.MODELCHECK_SEMI_SPACE ?? 32);

export function tuneHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MIB}`);
}
