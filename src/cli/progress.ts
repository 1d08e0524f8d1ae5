// Progress of long searches, on stderr only: nothing for the first seconds (a quick run stays
// quiet), then on a terminal one line rewritten in place, elsewhere (CI logs, files) a line every
// few seconds. With variants checked in parallel, the line shows each one's latest figures.
import type { Progress } from '../engine/search/bfs.ts';

export interface ProgressOptions {
  /** Stay quiet until a search has run this long. */
  readonly quietSeconds: number;
  /** Off a terminal: at most one line per this many seconds. */
  readonly everySeconds: number;
}

export const PROGRESS_DEFAULTS: ProgressOptions = { quietSeconds: 2, everySeconds: 5 };

function num(n: number): string {
  return n.toLocaleString('en-US');
}

export function progressLine(p: Progress): string {
  const rate = p.seconds > 0 ? Math.round(p.distinctStates / p.seconds) : 0;
  return `${p.variant}: ${num(p.distinctStates)} distinct states, ${num(rate)}/s, queue ${num(p.queue)}, depth ${p.depth}`;
}

/** A progress callback writing to `write` (stderr); `clear()` removes an in-place line. */
export function progressPrinter(
  write: (text: string) => void,
  isTty: boolean,
  o: ProgressOptions = PROGRESS_DEFAULTS,
): { onProgress: (p: Progress) => void; clear: () => void } {
  const latest = new Map<string, Progress>();
  let lastLine = -Infinity;
  let shown = false;
  return {
    onProgress: (p) => {
      latest.set(p.variant, p);
      if (p.seconds < o.quietSeconds) return;
      const line = [...latest.values()].map(progressLine).join(' | ');
      if (isTty) {
        write(`\r\x1b[K${line}`);
        shown = true;
      } else if (p.seconds - lastLine >= o.everySeconds) {
        lastLine = p.seconds;
        write(`${line}\n`);
      }
    },
    clear: () => {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
  };
}
