// Checkpoints of one variant's breadth-first search, and resuming from them (TLC's -checkpoint
// and -recover). A checkpoint is taken at a level boundary: every state of the level about to
// be expanded is stored and checked (its invariants, its liveness labels), and no state of it
// has been expanded yet. What it holds is the search's books at that moment (ledger.ts): the
// trace log (from which the visited set is rebuilt), the state graph when liveness needs one,
// and the counts and findings; no state. On resume the level's states are rebuilt by replay
// (frontierReplay.ts), and the search goes on as if it had never stopped: the same states,
// numbered the same way, so the same counts, verdicts and traces, with any number of threads.
//
// When: at the first boundary at least `everySeconds` after the last write, and when the
// search stops early (Ctrl-C, --timeout, --max-memory), from the last boundary, since the
// level under way is half done. A search that ends (proved, violated, or cut by a state or
// depth bound, which are part of its result) is saved whole, so that resuming it only rebuilds
// its report.
import { existsSync } from 'node:fs';
import type { Ledger, Books } from './ledger.ts';
import { CheckpointUnreadable, readCheckpointFile, whole, writeCheckpointFile, type Section, type SectionParts } from './checkpointFile.ts';
import { ModelError } from '../errors.ts';
import { stoppedEarly } from '../result.ts';

export interface CheckpointOptions {
  /** The variant's checkpoint file. */
  readonly file: string;
  /** Write at the first level boundary at least this many seconds after the last write (0: at every one). */
  readonly everySeconds: number;
  /**
   * What the search is of: a digest of the model's files, the variant, its parameters and the
   * options that change results. A checkpoint written for anything else is refused.
   */
  readonly identity: string;
  /** Continue from the file's checkpoint, when there is one (otherwise start afresh). */
  readonly resume?: boolean;
  /** Called after each write, with the level's depth (tests keep a copy of every one). */
  readonly onWrite?: (file: string, depth: number) => void;
}

/** Where a resumed search goes on from. */
export type Resumed = { readonly complete: true } | { readonly complete: false; readonly levelStart: number };

const FORMAT = 1;

interface Header {
  readonly format: number;
  readonly identity: string;
  readonly variant: string;
  readonly complete: boolean;
  readonly books: Books;
  readonly levelStarts: readonly number[];
  readonly params: readonly [string, string][];
}

export class Checkpoints {
  private last: Books | undefined;
  private lastWritten: Books | undefined;
  private lastWrite = performance.now();
  /** Resumed from a checkpoint of a search that had ended: nothing new to save. */
  private ended = false;
  /** How many checkpoints this search wrote, and their bytes. */
  writes = 0;
  bytes = 0;

  constructor(
    readonly options: CheckpointOptions,
    private readonly ledger: Ledger<unknown>,
  ) {}

  /** At a level boundary (see above): remember it, and write it if one is due. */
  boundary(levelStart: number): void {
    this.last = this.ledger.books(levelStart);
    if (performance.now() - this.lastWrite >= this.options.everySeconds * 1000) this.write(this.last, false);
  }

  /** The end of the breadth-first search (before its liveness phase). */
  end(): void {
    if (this.ended) return;
    if (stoppedEarly(this.ledger.incomplete)) {
      if (this.last !== undefined && this.last !== this.lastWritten) this.write(this.last, false);
    } else {
      this.write(this.ledger.books(-1), true);
    }
  }

  private write(books: Books, complete: boolean): void {
    const { log, graph } = this.ledger;
    const n = books.logSize;
    const sections: Record<string, SectionParts> = {
      parents: { type: 'i32', length: n, parts: log.chunksOf(n, 'parents') },
      actions: { type: 'u16', length: n, parts: log.chunksOf(n, 'actions') },
      fps: { type: 'u32', length: 2 * n, parts: log.chunksOf(n, 'fps') },
    };
    let params: [string, string][] = [];
    if (graph) {
      sections.start = whole(graph.start.subarray(0, books.graphStates + 1));
      const m = books.graphEdges;
      sections.target = { type: 'i32', length: m, parts: graph.edgeParts(m, 'targets') };
      sections.action = { type: 'u16', length: m, parts: graph.edgeParts(m, 'actions') };
      sections.param = { type: 'i32', length: m, parts: graph.edgeParts(m, 'params') };
      graph.labels.forEach((l, i) => {
        sections[`labels${i}`] = whole(l.subarray(0, Math.min(n, l.length)));
      });
      params = graph.paramKeys(books.graphParams).map(savedKey);
    }
    const header: Header = {
      format: FORMAT,
      identity: this.options.identity,
      variant: this.ledger.variant.name,
      complete,
      books,
      levelStarts: log.levelStarts.filter((s) => s < n),
      params,
    };
    this.bytes += writeCheckpointFile(this.options.file, header, sections);
    this.writes++;
    this.lastWritten = books;
    this.lastWrite = performance.now();
    this.options.onWrite?.(this.options.file, books.depth);
  }

  /** Takes the books back from the file, when resuming and there is one; where to go on from. */
  restore(): Resumed | undefined {
    const { file, resume } = this.options;
    if (!resume || !existsSync(file)) return undefined;
    const ledger = this.ledger;
    const refuse = (why: string, hint?: string) =>
      new ModelError('MC007_CHECKPOINT_REFUSED', `cannot resume variant ${ledger.variant.name} from ${file}: ${why}`, {
        model: ledger.modelName,
        variant: ledger.variant.name,
        ...(hint ? { hint } : {}),
      });
    let read: { header: unknown; sections: Record<string, Section> };
    try {
      read = readCheckpointFile(file);
    } catch (e) {
      if (e instanceof CheckpointUnreadable) throw refuse(e.message, 'start the search afresh, without --resume');
      throw e;
    }
    const header = read.header as Header;
    const s = read.sections;
    if (header.format !== FORMAT) throw refuse(`it is of format ${header.format}, and this modelcheck reads format ${FORMAT}`);
    if (header.variant !== ledger.variant.name || header.identity !== this.options.identity) {
      throw refuse(
        'it was written for other model files, another variant, other parameters or other options',
        'resume with the model and options it was written for, or start afresh',
      );
    }
    ledger.log.restore(s.parents as Int32Array, s.actions as Uint16Array, s.fps as Uint32Array, header.levelStarts, (id, fp) => {
      ledger.visited.put(fp, undefined, id);
    });
    const graph = ledger.graph;
    if (graph) {
      const labels = ledger.expansion.livenessProperties.map((_p, i) => s[`labels${i}`] as Uint8Array);
      graph.restore(
        s.start as Int32Array,
        s.target as Int32Array,
        s.action as Uint16Array,
        s.param as Int32Array,
        labels,
        header.params.map(keyOf),
      );
    }
    ledger.restoreBooks(header.books);
    this.last = this.lastWritten = header.books;
    this.ended = header.complete;
    return header.complete ? { complete: true } : { complete: false, levelStart: header.books.levelStart };
  }
}

/** A parameter key (parameterKey: a primitive value) as JSON, and back. */
function savedKey(k: unknown): [string, string] {
  if (typeof k === 'bigint') return ['bigint', k.toString()];
  if (k === null) return ['null', ''];
  if (typeof k === 'number' || typeof k === 'string' || typeof k === 'boolean' || k === undefined) return [typeof k, String(k)];
  throw new Error(`checkpoint: a parameter key of type ${typeof k}`);
}

function keyOf([type, text]: [string, string]): unknown {
  switch (type) {
    case 'bigint':
      return BigInt(text);
    case 'null':
      return null;
    case 'number':
      return Number(text);
    case 'boolean':
      return text === 'true';
    case 'undefined':
      return undefined;
    default:
      return text;
  }
}
