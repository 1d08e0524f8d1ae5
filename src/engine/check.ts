// The library entry point: check every variant of a model (or one), and return typed results.
import { checkVariant, type SearchOptions } from './search/bfs.ts';
import { ModelError } from './errors.ts';
import type { Model, Variant, VariantMatrix } from './model.ts';
import type { ModelResult } from './result.ts';

export interface CheckOptions extends Omit<SearchOptions, 'modelName'> {
  /** Check only the variant of this name. */
  readonly variant?: string;
}

/**
 * The variants a run checks, by name: the one named `only`; or the rows of the model's
 * matrices (`matrix`: true for all of them, or a matrix's name), each variant once; or else
 * every variant not marked `matrixOnly`, in the model's order. Duplicate variant names, an
 * unknown `only` and a bad matrix are model errors.
 */
export function selectVariants(model: Model, only?: string, matrix?: boolean | string): Variant<unknown>[] {
  const names = model.variants.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new ModelError('MC105_DUPLICATE_NAME', `two variants of model ${model.name} are named ${dup}`, {
      model: model.name,
      subject: dup,
    });
  }
  if (matrix !== undefined && matrix !== false) {
    const variants = selectMatrices(model, matrix).flatMap((m) => m.rows.map((row) => row.variant));
    return variants.filter((v, i) => variants.indexOf(v) === i);
  }
  if (only === undefined) return model.variants.filter((v) => !v.matrixOnly);
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

export interface ResolvedMatrix {
  readonly matrix: VariantMatrix;
  readonly rows: readonly { readonly variant: Variant<unknown>; readonly values: readonly string[] }[];
}

/** The model's matrices (all, or the one named), their rows resolved and checked against the model. */
export function selectMatrices(model: Model, which: true | string): ResolvedMatrix[] {
  const matrices = model.matrices ?? [];
  if (matrices.length === 0) {
    throw new ModelError('MC109_BAD_MATRIX', `model ${model.name} declares no variant matrix`, {
      model: model.name,
      hint: 'add `matrices: [{ name, dimensions, rows }]` to defineModel, or run without --matrix',
    });
  }
  const chosen = which === true ? matrices : matrices.filter((m) => m.name === which);
  if (chosen.length === 0) {
    throw new ModelError('MC109_BAD_MATRIX', `model ${model.name} has no matrix named ${which}`, {
      model: model.name,
      subject: String(which),
      hint: `its matrices: ${matrices.map((m) => m.name).join(', ')}`,
    });
  }
  return chosen.map((matrix) => ({
    matrix,
    rows: matrix.rows.map((row) => {
      const variant = model.variants.find((v) => v.name === row.variant);
      if (variant === undefined) {
        throw new ModelError('MC109_BAD_MATRIX', `a row of matrix ${matrix.name} of model ${model.name} names no variant: ${row.variant}`, {
          model: model.name,
          subject: row.variant,
          hint: `its variants: ${model.variants.map((v) => v.name).join(', ')}`,
        });
      }
      if (row.values.length !== matrix.dimensions.length) {
        throw new ModelError(
          'MC109_BAD_MATRIX',
          `the row of variant ${row.variant} in matrix ${matrix.name} of model ${model.name} has ${row.values.length} values for ${matrix.dimensions.length} dimensions`,
          { model: model.name, subject: row.variant, hint: `dimensions: ${matrix.dimensions.join(', ')}` },
        );
      }
      return { variant, values: row.values };
    }),
  }));
}

export function check(model: Model, options: CheckOptions = {}): ModelResult {
  const { variant, ...search } = options;
  return {
    model: model.name,
    description: model.description,
    variants: selectVariants(model, variant).map((v) => checkVariant(v, { ...search, modelName: model.name })),
  };
}
