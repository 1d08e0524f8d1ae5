// How fast V8 lets a thread's heap grow. After each full collection V8 sets the next limit at a
// multiple of what survived, of its own choosing (up to several times it on a heap that
// allocates fast, as a search does: every successor is a new immutable state, most of them
// garbage at once). With gigabytes of headroom that lets garbage pile up to several times the
// live states. A fixed factor of 1.25 collects more often and keeps the peak near what is live:
// on the bench's move case 6, 418 MiB against 696, in 35.3 s against 35.9 (bench/README.md).
// V8's flags are the process's: set once, before the search threads start.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 25;

export function tuneHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
