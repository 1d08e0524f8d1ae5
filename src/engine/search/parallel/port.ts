// An expander in another thread: the serving side runs in that thread, the link in the
// coordinator's. Over anything with postMessage and a message event, such as a worker's
// parentPort and the Worker object itself; the engine starts no threads of its own.
import type { Variant } from '../../model.ts';
import { Expander, type ExpanderOptions } from './expander.ts';
import type { ExpanderLink, Order, Report } from './protocol.ts';

export interface MessagePortLike {
  postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** Needed only by a link that is released (portLink), for a thread that serves search after search. */
  off?(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Answers the coordinator's orders with `variant`'s expander until it says close. */
export function serveExpander<S>(variant: Variant<S>, options: ExpanderOptions, port: MessagePortLike, onClose: () => void): void {
  const serve = expanderServer(variant, options, port);
  port.on('message', (message) => {
    if (serve(message)) onClose();
  });
}

/**
 * The serving side of one search, a message at a time, for a thread that takes its messages
 * itself (the CLI's helper threads serve one search after another on one port): makes the
 * expander, says it is ready (with `job`, which the link of that search waits for, portLink),
 * and returns the handler of the orders, which answers true at close.
 */
export function expanderServer<S>(
  variant: Variant<S>,
  options: ExpanderOptions,
  port: Pick<MessagePortLike, 'postMessage'>,
  job?: number,
): (message: unknown) => boolean {
  const expander = new Expander(variant, options);
  // (Before any report: the coordinator may bring this thread in now, portLink.)
  port.postMessage(job === undefined ? { ready: true } : { ready: true, job });
  return (message) => {
    const order = message as Order;
    if (order.kind === 'close') {
      expander.close();
      return true;
    }
    let report: Report;
    try {
      report = expander.handle(order);
    } catch (e) {
      // A bug, not a fault of the model's (those are in the report): the coordinator says so.
      port.postMessage({ crash: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      return false;
    }
    port.postMessage(report, [report.records.buffer as ArrayBuffer]);
    return false;
  };
}

/**
 * The coordinator's side of an expander served by serveExpander in another thread. Call
 * `failed` when the thread dies (an 'error' or 'exit' event): the report waited for, or the
 * next, is then that error, instead of a wait for ever. For a thread that serves search after
 * search (expanderServer), `job` is the search's number: a readiness sent for an earlier one
 * (a thread still loading when that search ended) is not this search's; `release` stops
 * listening once the search has closed it.
 */
export function portLink(port: MessagePortLike, job?: number): ExpanderLink & { failed(e: Error): void; release(): void } {
  const arrived: unknown[] = [];
  let waiting: ((m: unknown) => void) | undefined;
  let ready = false;
  let becameReady!: () => void;
  let died!: (e: Error) => void;
  const readiness = new Promise<void>((resolve, reject) => {
    becameReady = resolve;
    died = reject;
  });
  // (A thread that dies unused, its search over first, is no error of the search's.)
  readiness.catch(() => undefined);
  const deliver = (m: unknown) => {
    const r = m as { ready?: boolean; job?: number };
    if (r.ready === true) {
      if (r.job !== job) return;
      ready = true;
      becameReady();
      return;
    }
    const crash = (m as { crash?: string }).crash;
    if (crash !== undefined && !ready) died(new Error(`in a search thread: ${crash}`));
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    } else arrived.push(m);
  };
  port.on('message', deliver);
  return {
    failed(e: Error) {
      deliver({ crash: e.message });
    },
    release() {
      port.off?.('message', deliver);
    },
    isReady: () => ready,
    whenReady: () => readiness,
    send(order) {
      port.postMessage(order, order.kind === 'level' ? [order.assign.buffer as ArrayBuffer] : []);
    },
    async report() {
      const m = arrived.length > 0 ? arrived.shift() : await new Promise<unknown>((resolve) => (waiting = resolve));
      const crash = (m as { crash?: string }).crash;
      if (crash !== undefined) throw new Error(`in a search thread: ${crash}`);
      return m as Report;
    },
  };
}
