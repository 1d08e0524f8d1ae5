// How fast V8 lets a thread's heap grow. After each full collection V8 sets the next limit at a
// multiple of what survived, of its own choosing (up to several times it on a heap that
// allocates fast, as a search does: every successor is a new immutable state, most of them
// garbage at once). With gigabytes of headroom that lets garbage pile up to several times the
// live states: the main command peaked at 1,923 MiB so (bench/README.md, when its searches took
// three times as long). A fixed factor bounds the peak. Which factor is a trade of memory for
// time: a full collection marks what is live, and one comes each time (factor - 1) times that
// much garbage has reached the old generation (the frontier's states, kept past two scavenges
// and dropped once expanded), so their total cost goes as 1 / (factor - 1). 1.25 was chosen when
// the searches were three times slower than now. Measured one after the other (bench/README.md,
// thirty-sixth run), 1.25 against 2: the faults matrix's largest row (2.4 million states, one
// thread) 117 against 98 s, 157 against 120 s of CPU (the collector's helper threads included),
// 778 against 933 MiB at the peak; the main command without its type check 71-72 against 63-68 s
// (an hour before, no difference: 64 s both), 797-826 against 974-979 MiB (with it, from a fresh
// clone: 924 MiB before, 1,077 after). The frontier's tiers (storage.ts) read the
// heap's use, garbage included, so a search with a large frontier now moves it to bytes at a
// smaller live heap than before (not measured again on the large configuration, case 9).
// V8's flags are the process's: set once, before the search threads start.
import { setFlagsFromString } from 'node:v8';

/** MODELCHECK_HEAP_GROWING overrides it (a whole number of percent), for an A/B. */
export const HEAP_GROWING_PERCENT = fromEnvironment('MODELCHECK_HEAP_GROWING', 100);

/**
 * MiB of each of the young generation's semi-spaces, where every new object starts. A search
 * makes mostly short-lived objects (successors that are already known, the steps to build them),
 * and V8's default (16 MiB) collects them so often that scavenges took a quarter of the time on
 * LamportMutex. Measured (bench/README.md, eighth run), whole runs with 16 / 32 / 64: the main
 * command 187 / 167 / 165 s at a peak of 971 / 1,100 / 1,359 MiB; LamportMutex (one worker)
 * about 34.5 / 32.5 / 31.5 s. 32 takes most of the gain for a third of the memory. Worker threads
 * take the flag when they start. MODELCHECK_SEMI_SPACE overrides it, for an A/B.
 */
export const SEMI_SPACE_MIB = fromEnvironment('MODELCHECK_SEMI_SPACE', 32);

export function tuneHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MIB}`);
}

/**
 * A whole number from 1 to 999999 in the environment variable `name`, else `fallback`. (These are for
 * measurements: a value V8 would not take is said on stderr, and the default used.)
 */
function fromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  // (Digits only: Number() would also take '1e21', and V8's flags are 32-bit integers.)
  const n = /^\d{1,6}$/.test(text) ? Number(text) : 0;
  if (n > 0) return n;
  process.stderr.write(`modelcheck: ${name}="${text}" is not a whole number from 1 to 999999; using ${fallback}\n`);
  return fallback;
}
