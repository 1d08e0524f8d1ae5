#!/usr/bin/env node
// Node 20 cannot load TypeScript by itself: register the tsx loader, then run the CLI, which
// imports the user's .ts model. Any error reaching here is a bug in modelcheck, not in a model.
import { own, registerLoaders } from './layout.js';

/** The process that started this one, read first of all: see onOrphaned. */
const STARTED_BY = process.ppid;
registerLoaders();
const { tuneHeap } = await import(own('cli/heap'));
tuneHeap();
// (After tuneHeap: a worker takes the heap flags when it starts.)
const { startEarlyWorker } = await import(own('cli/earlyWorker'));
startEarlyWorker(process.argv.slice(2));
let runCli;
try {
  ({ runCli } = await import(own('cli/main')));
} catch (e) {
  // The one fault met while loading: an immutable.js other than the one supported (its message says what to do).
  if (e?.name !== 'UnsupportedImmutable') throw e;
  console.error(e.message);
  process.exit(2);
}
try {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    colorOut: Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env),
    stderrIsTty: Boolean(process.stderr.isTTY),
    // The parent's end, seen as a new parent (the orphan is adopted): polled, as no signal says it.
    // (Against the parent at start-up, not at the call: a parent killed in between, as soon as it
    // read the explorer's address, left a server that never noticed, adopted before it looked.)
    onOrphaned: (handler) => {
      const parent = STARTED_BY;
      const timer = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(timer);
        handler();
      }, 500);
      timer.unref();
      return () => clearInterval(timer);
    },
    // The first Ctrl-C asks the searches to stop and report; a second one quits at once. SIGTERM
    // (what a container's stop and a Kubernetes pod's eviction send) is taken as Ctrl-C is: a
    // shard's searches write their checkpoints before the pod goes.
    onInterrupt: (handler) => {
      let pressed = 0;
      const listener = (signal) => {
        if (++pressed === 1) handler();
        else process.exit(signal === 'SIGTERM' ? 143 : 130);
      };
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
    // Keys for --watch: a terminal is read key by key (in raw mode, where Ctrl-C arrives as a
    // key, not a signal: it is passed on as SIGINT), a pipe line by line.
    onInput: (handler) => {
      const stdin = process.stdin;
      if (stdin.isTTY) {
        const onData = (data) => {
          for (const key of data.toString('utf8')) {
            if (key === '\u0003') process.emit('SIGINT');
            else handler(key === '\r' || key === '\n' ? '' : key);
          }
        };
        stdin.setRawMode(true);
        stdin.on('data', onData);
        stdin.resume();
        return () => {
          stdin.off('data', onData);
          stdin.setRawMode(false);
          stdin.pause();
        };
      }
      let buffered = '';
      const onData = (data) => {
        buffered += data.toString('utf8');
        for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
          handler(buffered.slice(0, at).trim());
          buffered = buffered.slice(at + 1);
        }
      };
      stdin.on('data', onData);
      stdin.resume();
      return () => {
        stdin.off('data', onData);
        stdin.pause();
      };
    },
  });
  process.exitCode = code;
} catch (e) {
  console.error('modelcheck: internal error (please report it):');
  console.error(e);
  process.exitCode = 2;
}
