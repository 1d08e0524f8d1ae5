// The library entry point: check every variant of a model (or one), and return typed results.
import { checkVariant, type SearchOptions } from './bfs.ts';
import { ModelError } from './errors.ts';
import type { Model, Variant } from './model.ts';
import type { ModelResult } from './result.ts';

export interface CheckOptions extends Omit<SearchOptions, 'modelName'> {
  /** Check only the variant of this name. */
  readonly variant?: string;
}

/**
 * The variants to check, by name, in the model's order: all of them, or just `only`. Duplicate
 * variant names and an unknown `only` are model errors.
 */
export function selectVariants(model: Model, only?: string): Variant<unknown>[] {
  const names = model.variants.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new ModelError('MC105_DUPLICATE_NAME', `two variants of model ${model.name} are named ${dup}`, {
      model: model.name,
      subject: dup,
    });
  }
  if (only === undefined) return [...model.variants];
  const found = model.variants.filter((v) => v.name === only);
  if (found.length === 0) {
    throw new ModelError('MC004_UNKNOWN_VARIANT', `model ${model.name} has no variant named ${only}`, {
      model: model.name,
      subject: only,
      hint: `its variants: ${names.join(', ')}`,
    });
  }
  return found;
}

export function check(model: Model, options: CheckOptions = {}): ModelResult {
  const { variant, ...search } = options;
  return {
    model: model.name,
    description: model.description,
    variants: selectVariants(model, variant).map((v) => checkVariant(v, { ...search, modelName: model.name })),
  };
}
