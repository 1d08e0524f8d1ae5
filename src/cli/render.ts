// One variant's result as the CLI prints it: its text, its JSON and the facts the summary and
// the exit status need. Made where the search ran (in a worker thread or not), so that only
// plain data crosses between threads.
import { Chalk } from 'chalk';
import type { VariantResult, Violation } from '../engine/result.ts';
import { variantToJson, type Json } from '../report/json.ts';
import { formatVariant, summarize, type VariantSummary } from '../report/text.ts';
import { counterexampleFileName, violationToItf } from '../report/itf.ts';
import { violationToMermaidMarkdown } from '../report/mermaid.ts';
import { graphToDot } from '../report/dot.ts';
import { variantDocs, type VariantDocs } from '../report/docs.ts';
import { smallGraph } from '../engine/search/smallGraph.ts';
import type { Variant } from '../engine/model.ts';
import { PathReplayer } from '../engine/search/replay.ts';

function num(n: number): string {
  return n.toLocaleString('en-US');
}

export interface RenderOptions {
  readonly colorLevel: 0 | 1;
  readonly trace: 'changes' | 'full';
  readonly coverage: boolean;
  readonly json: boolean;
  /** Make an ITF file per counterexample. */
  readonly itf: boolean;
  /** Make a Mermaid sequence diagram (a Markdown page) per counterexample. */
  readonly mermaid: boolean;
  /** The model file as the user named it, recorded in the ITF files' metadata. */
  readonly modelFile: string;
  /** Draw the reachable graph in DOT if it has at most this many states. */
  readonly dotMaxStates?: number;
  /** Make what the generated docs need of this variant. */
  readonly docs?: boolean;
}

/** A file to write, made where the search ran: `kind` says which output directory it goes to. */
export interface OutputFile {
  readonly kind: 'itf' | 'mermaid' | 'dot';
  readonly name: string;
  readonly content: string;
}

export interface RenderedVariant {
  readonly text: string;
  readonly json: Json | null;
  readonly summary: VariantSummary;
  readonly files: readonly OutputFile[];
  /** Why no DOT file was made, when one was asked for. */
  readonly declined: readonly string[];
  readonly docs: VariantDocs | null;
}

/** `variant` is needed only to draw the state graph (`dotMaxStates`) and for the docs (to number initial states). */
export function renderVariant(v: VariantResult, o: RenderOptions, variant?: Variant<unknown>): RenderedVariant {
  const files: OutputFile[] = [];
  const declined: string[] = [];
  if (o.dotMaxStates !== undefined && variant) {
    const g = smallGraph(variant, o.dotMaxStates, v.model);
    if (g.kind === 'graph') {
      files.push({ kind: 'dot', name: v.variant, content: graphToDot(`${v.model} ${v.variant}`, g, v.violations[0], variant.view) });
    } else {
      declined.push(
        `no state graph drawn for variant ${v.variant}: it has more than ${num(g.limit)} reachable states ` +
          '(DOT is for small models; raise --dot-max-states to draw a larger one)',
      );
    }
  }
  for (const x of v.violations) {
    if (o.itf) {
      const content = `${JSON.stringify(violationToItf(v, x, o.modelFile), null, 2)}\n`;
      files.push({ kind: 'itf', name: counterexampleFileName(v.variant, x.property, '.itf.json'), content });
    }
    if (o.mermaid) {
      files.push({
        kind: 'mermaid',
        name: counterexampleFileName(v.variant, x.property, '.md'),
        content: violationToMermaidMarkdown(v, x),
      });
    }
  }
  return {
    text: o.json ? '' : formatVariant(v, { chalk: new Chalk({ level: o.colorLevel }), trace: o.trace, coverage: o.coverage }),
    json: o.json ? variantToJson(v) : null,
    summary: summarize(v),
    files,
    declined,
    docs: o.docs ? variantDocs(v, initialIndexer(variant)) : null,
  };
}

/** Numbers a counterexample's initial state among the variant's initial states, for the docs record. */
function initialIndexer(variant: Variant<unknown> | undefined): (x: Violation) => number {
  if (variant === undefined) throw new Error('renderVariant: the docs need the variant, to number initial states');
  const replayer = new PathReplayer(variant);
  return (x) => replayer.initialIndex(x.trace[0].state);
}
