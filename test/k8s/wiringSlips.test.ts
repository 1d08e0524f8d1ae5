// The four wiring slips of issue 46's new user, each a model file (test/fixtures/k8s/slips/),
// each of which used to pass its search with exit 0 and no word: each now fails loudly, as an
// error naming the part and the fix, or as a warning of the search naming what never happened.
// The correctly wired operator passes with neither.
import { describe, expect, it } from 'vitest';
import { check, type k8s, ModelError, type Model } from 'modelcheck';
import correct from '../fixtures/k8s/slips/databaseOperator.ts';
import misspeltKind from '../fixtures/k8s/slips/misspeltKind.ts';
import ownsMapsToWrongKind from '../fixtures/k8s/slips/ownsMapsToWrongKind.ts';
import readsAnotherName from '../fixtures/k8s/slips/readsAnotherName.ts';
import secretNotCached from '../fixtures/k8s/slips/secretNotCached.ts';

function errorOf(model: Model): ModelError {
  try {
    check(model);
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  throw new Error('no error');
}

/** The warnings of the model's one variant that are not about actions never enabled. */
function coverageWarnings(model: Model): readonly string[] {
  const [r] = check(model).variants;
  expect(r.verdict).not.toBe('incomplete');
  return r.warnings.filter((w) => !w.startsWith('action '));
}

describe('wiring slips fail loudly', () => {
  it('the correctly wired operator: proved, no warning at all', () => {
    const [r] = check(correct).variants;
    expect([r.verdict, r.warnings]).toEqual(['proved', []]);
  });

  it('the same kind misspelt in the manager and the For() watch: the watch never queues, and the search says so', () => {
    const [r] = check(misspeltKind).variants;
    expect(r.warnings).toEqual([
      // No cache holds a Database: its informer never has an event to take in.
      'action operatorCache.sync is never enabled in any reachable state',
      'action databaseController.reconcile is never enabled in any reachable state',
      'action databaseController.createSecret is never enabled in any reachable state',
      "controller databaseController: its For() watch on Databse never queued a key in any reachable state (is Databse spelt as the objects' kind?)",
      "controller databaseController: its watch on Secret never queued a key in any reachable state (is Secret spelt as the objects' kind? does its map ever return a key?)",
    ]);
  });

  it('a cached read of a kind the manager does not cache: an error naming the kind, the manager and the fix', () => {
    const e = errorOf(secretNotCached);
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toBe(
      "action databaseController.reconcile threw Error: controller databaseController reads Secret through its manager operator's cache (r.cached('Secret/db-creds')), but operator does not cache Secret (its kinds: Database): add 'Secret' to the kinds of manager operator (controller-runtime would start an informer for it), or read it live with r.get",
    );
  });

  it('an Owns map that queues a key of a kind that does not exist: an error naming the watch and the key', () => {
    const e = errorOf(ownsMapsToWrongKind);
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toBe(
      "action operatorCache.sync threw Error: controller databaseController's watch on Secret (watches[1]) queued Databases/db, but databaseController reconciles Database (its For() kind, watches[0]): a reconcile.Request names an object of the controller's own kind; map the event to Database keys",
    );
  });

  it('a reconcile that creates under one name and reads another: the search warns of the read that never finds', () => {
    expect(coverageWarnings(readsAnotherName)).toEqual([
      'controller databaseController reads Secret/db-credentials but never finds it in any reachable state (does anything create an object of that name?)',
    ]);
  });
});

describe('keys that are not keys', () => {
  it('a cached read of null finds nothing, as it did; a map that returns undefined is an error naming it', async () => {
    const { k8s: lib } = await import('modelcheck');
    const { tinyWorld, TinyState, created, THING, actionNamed } = await import('../fixtures/k8s/tiny.ts');
    /** One manager caching Things, and one controller `c` on them with `watch` and `reconcile`. */
    const thingKube = (watch: k8s.WatchConfig, reconcile: k8s.Step<InstanceType<typeof TinyState>>) =>
      lib.kubernetes({
        world: tinyWorld,
        servers: ['main'],
        managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
        controllers: [{ name: 'c', manager: 'manager', watches: [watch], reconcile, steps: {} }],
      });
    const unreconciled = { main: [{ versions: [created], reconciled: false }] };
    let found: unknown = 'unread';
    const kube = thingKube({ kind: 'Thing' }, (r) => {
      found = r.cached(null as unknown as string);
      return r.done();
    });
    const [w] = kube.initialWorlds(unreconciled, { cacheLag: 'none' });
    actionNamed(kube, 'c.reconcile').next(TinyState({ kube: w }), THING);
    expect(found).toBeUndefined();
    const broken = thingKube({ kind: 'Thing', map: () => [undefined as unknown as string] }, (r) => r.done());
    expect(() => broken.initialWorlds(unreconciled, { cacheLag: 'none' })).toThrow(
      "controller c's watch on Thing (watches[0]) queued undefined, which is not a key, but c reconciles Thing",
    );
  });
});
