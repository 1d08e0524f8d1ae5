// One variant's result as the CLI prints it: its text, its JSON and the facts the summary and
// the exit status need. Made where the search ran (in a worker thread or not), so that only
// plain data crosses between threads.
import { Chalk } from 'chalk';
import type { VariantResult } from '../engine/result.ts';
import { variantToJson, type Json } from '../report/json.ts';
import { formatVariant, summarize, type VariantSummary } from '../report/text.ts';
import { counterexampleFileName, violationToItf } from '../report/itf.ts';
import { violationToMermaidMarkdown } from '../report/mermaid.ts';

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
}

/** A file to write, made where the search ran: `kind` says which output directory it goes to. */
export interface OutputFile {
  readonly kind: 'itf' | 'mermaid';
  readonly name: string;
  readonly content: string;
}

export interface RenderedVariant {
  readonly text: string;
  readonly json: Json | null;
  readonly summary: VariantSummary;
  readonly files: readonly OutputFile[];
}

export function renderVariant(v: VariantResult, o: RenderOptions): RenderedVariant {
  const files: OutputFile[] = [];
  for (const x of v.violations) {
    if (o.itf) {
      const content = `${JSON.stringify(violationToItf(v, x, o.modelFile), null, 2)}\n`;
      files.push({ kind: 'itf', name: counterexampleFileName(v.variant, x.property, '.itf.json'), content });
    }
    if (o.mermaid) {
      files.push({ kind: 'mermaid', name: counterexampleFileName(v.variant, x.property, '.md'), content: violationToMermaidMarkdown(v, x) });
    }
  }
  return {
    text: o.json ? '' : formatVariant(v, { chalk: new Chalk({ level: o.colorLevel }), trace: o.trace, coverage: o.coverage }),
    json: o.json ? variantToJson(v) : null,
    summary: summarize(v),
    files,
  };
}
