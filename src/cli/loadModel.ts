// Loads a model module (TypeScript through the tsx loader that bin/modelcheck.js registers),
// finds its model and sets its parameters, turning every way this can fail into a ModelError
// for the user.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ModelError } from '../engine/errors.ts';
import { isModel, type Model } from '../engine/model.ts';
import { configureModel } from '../engine/parameters.ts';
import { diagnoseLoadFailure } from './modelPackage.ts';

/**
 * `params`: the `name=value` texts of --param, in the order given. `run` (--watch): the model is
 * imported afresh for each run, with its local modules (bin/resolveHook.js), so that an edit is
 * seen by a thread that loaded the model before.
 */
export async function loadModel(file: string, params: readonly string[] = [], run?: number): Promise<Model> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new ModelError('MC001_MODEL_FILE_MISSING', `no model file at ${file}`, { model: file });
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(`${pathToFileURL(path).href}${run === undefined ? '' : `?modelcheck-run=${run}`}`)) as Record<string, unknown>;
  } catch (cause) {
    // A mistake the model's own setup reports (a Kubernetes environment's wiring, say) keeps its code.
    if (cause instanceof ModelError) throw new ModelError(cause.code, cause.message, { ...cause.details, model: file });
    const message = cause instanceof Error ? cause.message : String(cause);
    // A model outside a package set up for it fails with Node's words (a require cycle, a missing
    // package): say what is wrong with the folder instead, and the command that mends it.
    const known = diagnoseLoadFailure(path);
    if (known !== undefined) {
      throw new ModelError('MC002_MODEL_LOAD_FAILED', `cannot load ${file}: ${known.message}`, { model: file, hint: known.hint, cause });
    }
    throw new ModelError('MC002_MODEL_LOAD_FAILED', `cannot load ${file}: ${message}`, { model: file, cause });
  }
  const found = isModel(module.default) ? module.default : Object.values(module).find(isModel);
  if (!found) {
    throw new ModelError('MC003_NO_MODEL_EXPORT', `${file} exports no model`, {
      model: file,
      hint: "export default defineModel({ ... }) from 'modelcheck'",
    });
  }
  return configureModel(found, params);
}
