// The library entry point: check every variant of a model (or one), and return typed results.
import { checkVariant, type SearchOptions } from './bfs.ts';
import { ModelError } from './errors.ts';
import type { Model } from './model.ts';
import type { ModelResult } from './result.ts';

export interface CheckOptions extends Omit<SearchOptions, 'modelName'> {
  /** Check only the variant of this name. */
  readonly variant?: string;
}

export function check(model: Model, options: CheckOptions = {}): ModelResult {
  const names = model.variants.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new ModelError('MC105_DUPLICATE_NAME', `two variants of model ${model.name} are named ${dup}`, {
      model: model.name,
      subject: dup,
    });
  }
  const variants = options.variant === undefined ? model.variants : model.variants.filter((v) => v.name === options.variant);
  if (variants.length === 0) {
    throw new ModelError('MC004_UNKNOWN_VARIANT', `model ${model.name} has no variant named ${options.variant}`, {
      model: model.name,
      subject: options.variant,
      hint: `its variants: ${names.join(', ')}`,
    });
  }
  const { variant: _ignored, ...search } = options;
  return {
    model: model.name,
    description: model.description,
    variants: variants.map((v) => checkVariant(v, { ...search, modelName: model.name })),
  };
}
