// The checks a Kubernetes environment passes before any search: every name a controller, a
// manager or a history uses must name something that exists, and every part must be used. Each
// of these mistakes would otherwise pass silently: a controller whose manager's server is
// misspelt never runs (and the model is "proved" in two states), a watch on a kind the cache does
// not hold never fires (fewer states, still "proved"), a misspelt step parks a reconcile for ever.
// Each error names the part, what is wrong and the fix.
import { ModelError } from '../engine/errors.ts';
import type { ControllerConfig, ManagerConfig } from './controller.ts';

/** Names become parts of action names (`<manager>Cache.sync`, `<controller>.<step>`): identifiers only. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function wiringError(message: string, hint: string): ModelError {
  return new ModelError('MC111_KUBERNETES_WIRING', message, { hint });
}

function checkNames(what: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!IDENTIFIER.test(name)) {
      throw wiringError(
        `${what} name '${name}' is not an identifier`,
        `name it with letters, digits and _ only (e.g. '${name.replace(/[^A-Za-z0-9_]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}'): it becomes part of action names`,
      );
    }
    if (seen.has(name)) throw wiringError(`two ${what}s are named ${name}`, `give each ${what} a name of its own`);
    seen.add(name);
  }
}

/** Throws a ModelError (MC111) for the first wiring mistake in a Kubernetes environment. */
export function checkWiring(
  servers: readonly string[],
  managers: readonly ManagerConfig[],
  controllers: readonly ControllerConfig<unknown>[],
): void {
  checkNames('API server', servers);
  checkNames(
    'manager',
    managers.map((m) => m.name),
  );
  checkNames(
    'controller',
    controllers.map((c) => c.name),
  );
  for (const m of managers) {
    if (!servers.includes(m.server)) {
      throw wiringError(
        `manager ${m.name} talks to API server ${m.server}, which is not one of the servers (${servers.join(', ')})`,
        `set its server to one of ${servers.join(', ')}, or add ${m.server} to servers`,
      );
    }
    if (!m.readByModel && !controllers.some((c) => c.manager === m.name)) {
      throw wiringError(
        `manager ${m.name} runs no controller, so nothing reads its cache`,
        `give a controller manager: '${m.name}', remove the manager (a tool that reads the server directly needs no manager), or set readByModel: true if the model reads the cache itself`,
      );
    }
  }
  for (const c of controllers) {
    const m = managers.find((x) => x.name === c.manager);
    if (m === undefined) {
      throw wiringError(
        `controller ${c.name} runs in manager ${c.manager}, which is not one of the managers (${managers.map((x) => x.name).join(', ')})`,
        `set its manager to one of ${managers.map((x) => x.name).join(', ')}, or add a manager named ${c.manager}`,
      );
    }
    if (c.watches.length === 0) {
      throw wiringError(`controller ${c.name} watches nothing, so nothing ever queues a key for it`, 'add its For() kind to watches');
    }
    for (const w of c.watches) {
      if (!m.kinds.includes(w.kind)) {
        throw wiringError(
          `controller ${c.name} watches ${w.kind}, but its manager ${m.name} does not cache ${w.kind} (its kinds: ${m.kinds.join(', ')}), so the watch would never fire`,
          `add '${w.kind}' to the kinds of manager ${m.name}`,
        );
      }
    }
    for (const step of Object.keys(c.steps)) {
      if (step === 'reconcile') {
        throw wiringError(
          `controller ${c.name} has a step named reconcile`,
          'reconcile is the first step (the config field reconcile); name the later step otherwise',
        );
      }
      if (!IDENTIFIER.test(step)) {
        throw wiringError(
          `controller ${c.name} has a step named '${step}', which is not an identifier`,
          'name steps with letters, digits and _ only',
        );
      }
    }
  }
}

/** The error for a step that continues with a step its controller does not have. */
export function unknownStepError(controller: string, from: string, target: string, steps: readonly string[]): Error {
  const near = steps.find((s) => s.toLowerCase() === target.toLowerCase());
  return new Error(
    `${controller}.${from} continues with r.goto('${target}'), but ${controller} has no step ${target} (its steps: ${steps.length > 0 ? steps.join(', ') : 'none'})${near ? `; did you mean ${near}?` : ''}`,
  );
}

/** A read of a kind the controller's manager does not cache: an error, where it would quietly find nothing. */
export function uncachedKindError(controller: string, m: ManagerConfig, kind: string, what: string): Error {
  return new Error(
    `controller ${controller} reads ${kind} through its manager ${m.name}'s cache (${what}), but ${m.name} does not cache ${kind} (its kinds: ${m.kinds.join(', ')}): ` +
      `add '${kind}' to the kinds of manager ${m.name} (controller-runtime would start an informer for it), or read it live with r.get`,
  );
}

/** A watch that queues a key of another kind than its controller's For() kind. */
export function wrongKindQueuedError(controller: string, watchKind: string, watch: number, key: unknown, forKind: string): Error {
  return new Error(
    `controller ${controller}'s watch on ${watchKind} (watches[${watch}]) queued ${typeof key === 'string' ? key : `${String(key)}, which is not a key`}, but ${controller} reconciles ${forKind} (its For() kind, watches[0]): ` +
      `a reconcile.Request names an object of the controller's own kind; map the event to ${forKind} keys`,
  );
}
