// One variant's result as the CLI prints it: its text, its JSON and the facts the summary and
// the exit status need. Made where the search ran (in a worker thread or not), so that only
// plain data crosses between threads.
import { Chalk } from 'chalk';
import type { VariantResult } from '../engine/result.ts';
import { variantToJson, type Json } from '../report/json.ts';
import { formatVariant, summarize, type VariantSummary } from '../report/text.ts';

export interface RenderOptions {
  readonly colorLevel: 0 | 1;
  readonly trace: 'changes' | 'full';
  readonly coverage: boolean;
  readonly json: boolean;
}

export interface RenderedVariant {
  readonly text: string;
  readonly json: Json | null;
  readonly summary: VariantSummary;
}

export function renderVariant(v: VariantResult, o: RenderOptions): RenderedVariant {
  return {
    text: o.json ? '' : formatVariant(v, { chalk: new Chalk({ level: o.colorLevel }), trace: o.trace, coverage: o.coverage }),
    json: o.json ? variantToJson(v) : null,
    summary: summarize(v),
  };
}
