// The entry point of a search shared among threads: the caller supplies the links to the
// other threads' expanders (how they are started, and how they load the model, is the
// caller's business: the CLI starts worker threads that load the model file); this thread
// runs the coordinator and an expander of its own.
import type { Variant } from '../../model.ts';
import { search } from '../bfs.ts';
import { Ledger, type SearchOptions } from '../ledger.ts';
import type { VariantResult } from '../../result.ts';
import { Expander, type ExpanderOptions } from './expander.ts';
import { WARM_UP_PER_THREAD, runParallel } from './coordinator.ts';
import type { ExpanderLink, Order, Report } from './protocol.ts';

/** Why `variant` cannot be split among threads under `options`, or undefined if it can. */
export function splitRefusal(variant: Variant<unknown>, options: SearchOptions): string | undefined {
  const props = variant.properties;
  if (props.filter((p) => p.kind === 'liveness').length > 15) return 'more than 15 liveness properties';
  if (options.exact) return '--exact compares whole states, kept in one thread';
  if (props.filter((p) => p.kind === 'settled').length > 30) return 'more than 30 settled-state properties';
  return undefined;
}

/**
 * Checks `variant` with this thread and the expanders behind `helpers`. It finds what
 * checkVariant finds, whatever the number of helpers. A variant that cannot be split (see
 * splitRefusal) is searched by this thread alone, and, when more threads were offered, the
 * result says why. The helpers are closed either way.
 */
export async function checkVariantParallel<S>(
  variant: Variant<S>,
  options: SearchOptions,
  helpers: readonly ExpanderLink[],
  more: {
    /** The threads the caller would have used (default: this one and the helpers). */
    readonly offered?: number;
    /** Levels smaller than this per thread are expanded by every thread (tests set 0 to split at once). */
    readonly warmUp?: number;
  } = {},
): Promise<VariantResult<S>> {
  let ledger: Ledger<S>;
  try {
    ledger = new Ledger(variant, options);
  } catch (e) {
    for (const h of helpers) h.send({ kind: 'close' });
    throw e;
  }
  const why = splitRefusal(variant as Variant<unknown>, options);
  const offered = more.offered ?? helpers.length + 1;
  if (why !== undefined || helpers.length === 0) {
    for (const h of helpers) h.send({ kind: 'close' });
    ledger.threads = { used: 1, ...(why !== undefined && offered > 1 ? { why } : {}) };
    return ledger.guard(() => search(ledger));
  }
  ledger.threads = { used: helpers.length + 1 };
  return await runParallel(ledger, [expanderInThisThread(variant, options), ...helpers], more.warmUp ?? WARM_UP_PER_THREAD);
}

/**
 * An expander in this thread, behind the same interface as the others': the coordinator's
 * own, and, several of them, a parallel search without threads for tests.
 */
export function expanderInThisThread<S>(variant: Variant<S>, options: ExpanderOptions): ExpanderLink {
  const expander = new Expander(variant, options);
  let pending: Order | undefined;
  return {
    send(order) {
      if (order.kind === 'close') expander.close();
      pending = order;
    },
    // Run when asked for, after the orders to the other threads are out.
    report(): Promise<Report> {
      const order = pending!;
      pending = undefined;
      if (order.kind === 'close') return Promise.reject(new Error('no report after close'));
      return Promise.resolve(expander.handle(order));
    },
  };
}
