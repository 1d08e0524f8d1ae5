// A model's parameters set from `name=value` texts (the CLI's --param), checked against what the
// model declares, as TLC checks a .cfg's CONSTANTS against the spec. Every mistake is a
// ModelError naming the model and the parameter, with what the model accepts.
import { ModelError } from './errors.ts';
import type { Model } from './model.ts';

/** `model` built again with the parameters `assignments` set (`name=value` each); `model` itself for none. */
export function configureModel(model: Model, assignments: readonly string[]): Model {
  if (assignments.length === 0) return model;
  const declared = model.parameters ?? {};
  const names = Object.keys(declared);
  if (names.length === 0 || model.withParameters === undefined) {
    throw new ModelError('MC006_BAD_PARAMETER', `model ${model.name} declares no parameters, so --param ${assignments[0]} sets nothing`, {
      model: model.name,
      hint: 'declare them with defineModel({ parameters: { ... }, variants: (values) => [...] })',
    });
  }
  const values: Record<string, number> = {};
  for (const text of assignments) {
    const eq = text.indexOf('=');
    const name = eq < 0 ? text : text.slice(0, eq);
    const spec = declared[name];
    if (spec === undefined) {
      throw new ModelError('MC006_BAD_PARAMETER', `model ${model.name} has no parameter ${JSON.stringify(name)}`, {
        model: model.name,
        subject: name,
        hint: `its parameters: ${names.map((n) => `${n} (${declared[n].min} to ${declared[n].max})`).join(', ')}`,
      });
    }
    if (name in values) {
      throw new ModelError('MC006_BAD_PARAMETER', `parameter ${name} of model ${model.name} is set twice`, {
        model: model.name,
        subject: name,
      });
    }
    const given = eq < 0 ? '' : text.slice(eq + 1);
    // Number('') is 0: an empty value is refused before it is read.
    const value = given.trim() === '' ? NaN : Number(given);
    if (!Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
      const range = `${spec.min} to ${spec.max}, default ${spec.default}`;
      throw new ModelError(
        'MC006_BAD_PARAMETER',
        `parameter ${name} of model ${model.name} takes a whole number from ${range}, not ${JSON.stringify(given)}`,
        {
          model: model.name,
          subject: name,
          hint: `${name}: ${spec.description}; write --param ${name}=<n>`,
        },
      );
    }
    values[name] = value;
  }
  try {
    return model.withParameters(values);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new ModelError('MC006_BAD_PARAMETER', `model ${model.name} could not be built with ${assignments.join(', ')}: ${message}`, {
      model: model.name,
      cause,
    });
  }
}
