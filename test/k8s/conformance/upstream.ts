// The Kubernetes API server's own tests of its generic registry store, and apimachinery's of
// object metadata, as conformance cases for the library's API server (issue 48, part 1). Read
// at kubernetes/apiserver v0.30.0, commit 9b2e61f60b8a7d50ccfb40adad37780cf4038cbf (the staging
// copy of kubernetes/kubernetes commit 698ad6630c56ffc27946f766b5c77e1f16482a77),
// pkg/registry/generic/registry/store_test.go, and kubernetes/apimachinery v0.30.0, commit
// 37988e577e160bf7749437141fee1d6b8ca15dd6, pkg/api/validation/objectmeta_test.go.
//
// Every Test function is listed, in file order: in scope (each of its cases written as requests
// and the answers and stored objects the test expects), partly in scope (the steps that are), or
// out of scope, with why. Conventions where the test store and the library differ (the test
// store is a built-in kind: graceful, unconditional updates allowed, no generation rules; the
// library's kinds are custom resources):
// - a PUT sends the stored resourceVersion where the test sends none (custom resources allow no
//   unconditional update; the library answers that 422, a case of its own below);
// - grace periods are 0 (the library has no graceful deletion); `OrphanDependents: true/false`
//   is `propagationPolicy: Orphan/Background` (store.go 863-873 and 906-916 answer alike);
// - a kind's default garbage-collection policy is none (Background), as for custom resources;
// - a denying admission function (a plain Go error, HTTP 500) is a kind's validation (422):
//   only "refused, nothing stored" is compared.
// The answers' messages are compared where the upstream test asserts them; the library names an
// object `Kind/name` where the real server says `pods "foo"`.
/** A spec field's value, as the library's objects hold them. */
type FieldValue = string | number | boolean | null;

export type Policy = 'Orphan' | 'Foreground' | 'Background';

/** What a step expects: the status code, and where given, the stored object after it. */
export interface Expect {
  readonly code: 200 | 201 | 404 | 409 | 422;
  /** Text the answer's reason contains (where the upstream test asserts a message). */
  readonly message?: string;
  /** The object is no longer stored. */
  readonly gone?: boolean;
  readonly finalizers?: readonly string[];
  readonly deleting?: boolean;
  /** The stored generation is greater than this. */
  readonly generationAbove?: number;
  readonly spec?: Readonly<Record<string, FieldValue>>;
  /** The stored resourceVersion is the one before this step (nothing was written). */
  readonly unchanged?: boolean;
  /** The stored object's name (for a generated name). */
  readonly name?: string;
}

export type Step =
  | {
      readonly op: 'create';
      readonly name?: string;
      /** With `generateName`: the name the server's generator gives (the test's predictable generator). */
      readonly generateName?: string;
      readonly generated?: string;
      readonly finalizers?: readonly string[];
      readonly spec?: Readonly<Record<string, FieldValue>>;
      readonly ownerReferences?: readonly { readonly key: string; readonly uid: string; readonly controller?: boolean }[];
      /** The kind's validation refuses it (the test's denying admission). */
      readonly denied?: boolean;
      readonly expect: Expect;
    }
  | { readonly op: 'get'; readonly name: string; readonly expect: Expect }
  | {
      readonly op: 'update';
      readonly name: string;
      /** The resourceVersion sent: the stored one (default), or a number (0: none). */
      readonly rv?: 'stored' | number;
      /** The uid sent: the stored one, or none (default). */
      readonly uid?: 'stored';
      readonly finalizers?: readonly string[];
      readonly spec?: Readonly<Record<string, FieldValue>>;
      /** Sets a deletionTimestamp the stored object does not have, or drops the one it has. */
      readonly deletionTimestamp?: 'set' | 'cleared';
      readonly expect: Expect;
    }
  | {
      readonly op: 'delete';
      readonly name: string;
      readonly policy?: Policy;
      /** Preconditions: the stored resourceVersion or uid, or a number for the resourceVersion. */
      readonly rv?: 'stored' | number;
      readonly expect: Expect;
    };

export interface Case {
  readonly name: string;
  readonly lines?: string;
  readonly steps: readonly Step[];
}

export interface UpstreamTest {
  readonly file: 'store_test.go' | 'objectmeta_test.go';
  readonly test: string;
  readonly lines: string;
  readonly checks: string;
  readonly scope: 'in' | 'partial' | 'out';
  /** Why it is out of scope, or which steps a partial one leaves out. */
  readonly why?: string;
  readonly cases?: readonly Case[];
}

const F = 'foo.com/x';
const G = 'bar.com/y';
const ORPHAN = 'orphan';
const FG = 'foregroundDeletion';

/** TestStoreDeleteWithOrphanDependents's table (store_test.go 1670-1848): create, DELETE, the finalizers left. */
const orphanRows: readonly [string, readonly string[], Policy | undefined, readonly string[] | 'gone', boolean][] = [
  // [case, existing finalizers, policy (OrphanDependents true/false as Orphan/Background; E and nil as none), expected, in scope]
  ['pod1: [x, orphan, y], OrphanDependents true', [F, ORPHAN, G], 'Orphan', [F, ORPHAN, G], true],
  ['pod2: [x, y], OrphanDependents true', [F, G], 'Orphan', [F, G, ORPHAN], true],
  ['pod3: [], OrphanDependents true', [], 'Orphan', [ORPHAN], true],
  ['pod4: [orphan], OrphanDependents true', [ORPHAN], 'Orphan', [ORPHAN], true],
  ['pod5: [x, orphan, y], OrphanDependents false', [F, ORPHAN, G], 'Background', [F, G], true],
  ['pod6: [x, y], OrphanDependents false', [F, G], 'Background', [F, G], true],
  ['pod7: [], OrphanDependents false', [], 'Background', 'gone', true],
  ['pod8: [orphan], OrphanDependents false', [ORPHAN], 'Background', 'gone', true],
  ['pod9: [x, orphan, y], empty options, no default policy', [F, ORPHAN, G], undefined, [F, ORPHAN, G], true],
  ['pod10: [x, orphan, y], empty options, default orphan policy', [F, ORPHAN, G], undefined, [F, ORPHAN, G], true],
  ['pod11: [x, y], empty options, no default policy', [F, G], undefined, [F, G], true],
  ['pod12: [x, y], empty options, default orphan policy', [F, G], undefined, [F, G, ORPHAN], false],
  ['pod13: [], empty options, no default policy', [], undefined, 'gone', true],
  ['pod14: [], empty options, default orphan policy', [], undefined, [ORPHAN], false],
  ['pod15: [orphan], empty options, no default policy', [ORPHAN], undefined, [ORPHAN], true],
  ['pod16: [orphan], empty options, default orphan policy', [ORPHAN], undefined, [ORPHAN], true],
  ['pod17: [x, orphan, y], nil options, no default policy', [F, ORPHAN, G], undefined, [F, ORPHAN, G], true],
  ['pod18: [x, orphan, y], nil options, default orphan policy', [F, ORPHAN, G], undefined, [F, ORPHAN, G], true],
  ['pod19: [x, y], nil options, no default policy', [F, G], undefined, [F, G], true],
  ['pod20: [x, y], nil options, default orphan policy', [F, G], undefined, [F, G, ORPHAN], false],
  ['pod21: [], nil options, no default policy', [], undefined, 'gone', true],
  ['pod22: [], nil options, default orphan policy', [], undefined, [ORPHAN], false],
  ['pod23: [orphan], nil options, no default policy', [ORPHAN], undefined, [ORPHAN], true],
  ['pod24: [orphan], nil options, default orphan policy', [ORPHAN], undefined, [ORPHAN], true],
];

/** TestStoreDeletionPropagation's table (store_test.go 1917-2056). */
const propagationRows: [string, readonly string[], Policy | undefined, readonly string[] | 'gone', boolean][] = [];
for (const [existing, label] of [
  [[], 'no existing finalizers'],
  [[ORPHAN], 'existing orphan finalizer'],
  [[FG], 'existing deleteDependents finalizer'],
] as const) {
  for (const [policy, policyLabel] of [
    ['Foreground', 'Foreground'],
    ['Background', 'Background'],
    ['Orphan', 'OrphanDependents'],
    [undefined, 'Default'],
  ] as const) {
    for (const strategy of ['defaultDeleteStrategy', 'orphanDeleteStrategy'] as const) {
      const kept: readonly string[] | 'gone' =
        policy === 'Foreground'
          ? [FG]
          : policy === 'Background'
            ? 'gone'
            : policy === 'Orphan'
              ? [ORPHAN]
              : existing.length > 0
                ? existing
                : strategy === 'orphanDeleteStrategy'
                  ? [ORPHAN]
                  : 'gone';
      // Only "no finalizers, no policy, a kind whose default is orphan" needs a default policy.
      const inScope = !(policy === undefined && existing.length === 0 && strategy === 'orphanDeleteStrategy');
      propagationRows.push([`${label}, ${policyLabel}, ${strategy}`, existing, policy, kept, inScope]);
    }
  }
}

/** One table row as a case: create with the finalizers, DELETE, then what is stored. */
function deleteRow([name, existing, policy, expected]: (typeof orphanRows)[number]): Case {
  return {
    name,
    steps: [
      { op: 'create', name: 'foo', finalizers: existing, expect: { code: 201 } },
      { op: 'delete', name: 'foo', ...(policy !== undefined ? { policy } : {}), expect: { code: 200 } },
      expected === 'gone'
        ? { op: 'get', name: 'foo', expect: { code: 404 } }
        : { op: 'get', name: 'foo', expect: { code: 200, finalizers: expected, deleting: true, generationAbove: 1 } },
    ],
  };
}

export const UPSTREAM: readonly UpstreamTest[] = [
  {
    file: 'store_test.go',
    test: 'TestStoreList',
    lines: '178-251',
    checks: 'a list returns the objects a selector matches',
    scope: 'out',
    why: 'the library has no LIST verb with selectors (a list is every object of a kind); its two unfiltered cases say only that',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreListResourceVersion',
    lines: '255-315',
    checks: 'a list at a future resourceVersion waits for the watch cache',
    scope: 'out',
    why: 'no watch cache, no list at a resourceVersion',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreate',
    lines: '317-388',
    checks: 'create, AlreadyExists, and AlreadyExists "object is being deleted" while the object is being deleted',
    scope: 'partial',
    why: 'the deletion pending is a grace period upstream (50 s); here a finalizer keeps the object deleting',
    cases: [
      {
        name: 'create, then the same name again, then again while it is being deleted',
        lines: '336-387',
        steps: [
          { op: 'create', name: 'foo', denied: true, expect: { code: 422 } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
          { op: 'create', name: 'foo', finalizers: [F], spec: { nodeName: 'machine' }, expect: { code: 201 } },
          { op: 'get', name: 'foo', expect: { code: 200, spec: { nodeName: 'machine' } } },
          { op: 'create', name: 'foo', spec: { nodeName: 'machine2' }, expect: { code: 409, message: 'already exists' } },
          { op: 'delete', name: 'foo', expect: { code: 200 } },
          { op: 'create', name: 'foo', expect: { code: 409, message: 'object is being deleted:' } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreateWithRetryNameGenerate',
    lines: '401-448',
    checks: 'with the RetryGenerateName feature gate on, a generated name that is taken is tried again up to 8 times',
    scope: 'out',
    why: 'an alpha feature gate, off by default in v1.30; the library makes one attempt',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreateWithRetryNameGenerateFeatureDisabled',
    lines: '450-477',
    checks: 'with the gate off, a generated name that is taken is AlreadyExists',
    scope: 'in',
    cases: [
      {
        name: 'generateName prefix- gives prefix-0, which exists',
        steps: [
          { op: 'create', name: 'prefix-0', expect: { code: 201 } },
          { op: 'create', generateName: 'prefix-', generated: 'prefix-0', expect: { code: 409, message: 'already exists' } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestNewCreateOptionsFromUpdateOptions',
    lines: '479-529',
    checks: 'a conversion of option structs copies every field',
    scope: 'out',
    why: 'Go option structs',
  },
  {
    file: 'store_test.go',
    test: 'TestNewDeleteOptionsFromUpdateOptions',
    lines: '531-590',
    checks: 'a conversion of option structs copies every field',
    scope: 'out',
    why: 'Go option structs',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreateHooks',
    lines: '592-733',
    checks: "the order of the store's create hooks and decorators",
    scope: 'out',
    why: 'store hooks, decorators and TTL (its "no hooks" case is a plain create, covered by TestStoreCreate)',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreUpdate',
    lines: '760-832',
    checks: 'update of a missing object, resourceVersion conflict, a normal update',
    scope: 'partial',
    why: 'create-on-update (steps 3-4) is off for custom resources; the denying admission is a validation',
    cases: [
      {
        name: 'missing, conflict, update',
        lines: '779-822',
        steps: [
          { op: 'update', name: 'foo', rv: 1, spec: { nodeName: 'machine' }, expect: { code: 404 } },
          { op: 'create', name: 'foo', spec: { nodeName: 'machine' }, expect: { code: 201 } },
          { op: 'update', name: 'foo', rv: 7, spec: { nodeName: 'machine' }, expect: { code: 409 } },
          { op: 'update', name: 'foo', spec: { nodeName: 'machine2' }, expect: { code: 200, spec: { nodeName: 'machine2' } } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestNoOpUpdates',
    lines: '834-888',
    checks: 'an update that changes nothing writes nothing: same resourceVersion',
    scope: 'in',
    cases: [
      {
        name: 'the same object again',
        steps: [
          { op: 'create', name: 'foo', spec: { nodeName: 'machine' }, expect: { code: 201 } },
          { op: 'update', name: 'foo', spec: { nodeName: 'machine' }, expect: { code: 200, unchanged: true } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestStoreUpdateHooks',
    lines: '890-1025',
    checks: "the order of the store's update hooks and decorators",
    scope: 'out',
    why: 'store hooks and decorators (its "no hooks" case is TestNoOpUpdates)',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreateOnUpdateHooks',
    lines: '1027-1165',
    checks: 'create-on-update runs the create hooks',
    scope: 'out',
    why: 'create-on-update (off for custom resources) and hooks',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreUpdateHooksInnerRetry',
    lines: '1167-1274',
    checks: "a stale cached object makes the storage's update retry",
    scope: 'out',
    why: "the storage's cached-object retry, hooks and TTL",
  },
  {
    file: 'store_test.go',
    test: 'TestStoreGet',
    lines: '1276-1295',
    checks: 'get of a missing object is NotFound; get after create-on-update',
    scope: 'partial',
    why: 'create-on-update (its second step)',
    cases: [{ name: 'missing', steps: [{ op: 'get', name: 'foo', expect: { code: 404 } }] }],
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDelete',
    lines: '1297-1344',
    checks: 'delete of a missing object is NotFound; an object without finalizers is removed at once',
    scope: 'in',
    cases: [
      {
        name: 'missing, then created and deleted',
        steps: [
          { op: 'delete', name: 'foo', expect: { code: 404 } },
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, gone: true } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestStoreGracefulDeleteWithResourceVersion',
    lines: '1346-1401',
    checks: 'a delete with the current resourceVersion as precondition succeeds',
    scope: 'in',
    cases: [
      {
        name: 'precondition on the stored resourceVersion',
        steps: [
          { op: 'delete', name: 'foo', expect: { code: 404 } },
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'delete', name: 'foo', rv: 'stored', expect: { code: 200, gone: true } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestGracefulStoreCanDeleteIfExistingGracePeriodZero',
    lines: '1407-1438',
    checks: 'BeforeDelete on a half-done graceful delete (grace 0 already set) deletes at once',
    scope: 'out',
    why: 'a unit test of BeforeDelete with grace periods; no store verb is called',
  },
  {
    file: 'store_test.go',
    test: 'TestGracefulStoreHandleFinalizers',
    lines: '1440-1522',
    checks: 'a delete keeps an object with a finalizer; an update that keeps it keeps it; one that removes it deletes it',
    scope: 'in',
    cases: [
      {
        name: 'finalizer kept, then removed',
        steps: [
          { op: 'create', name: 'foo', finalizers: [F], spec: { nodeName: 'machine' }, expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: [F], spec: { nodeName: 'machine' }, expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: [], spec: { nodeName: 'anothermachine' }, expect: { code: 200, gone: true } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestNonGracefulStoreHandleFinalizers',
    lines: '1524-1623',
    checks: 'the same on a non-graceful store; marking sets deletionTimestamp and raises generation',
    scope: 'in',
    cases: [
      {
        name: 'marked, finalizer kept, then removed',
        steps: [
          { op: 'create', name: 'foo', finalizers: [F], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200 } },
          { op: 'get', name: 'foo', expect: { code: 200, deleting: true, generationAbove: 1, finalizers: [F] } },
          { op: 'update', name: 'foo', finalizers: [F], spec: { nodeName: 'machine' }, expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: [], spec: { nodeName: 'anothermachine' }, expect: { code: 200, gone: true } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteWithOrphanDependents',
    lines: '1625-1893',
    checks: 'the finalizers a DELETE leaves, by OrphanDependents, the orphan finalizer there and the kind default',
    scope: 'partial',
    why: 'pod12, pod14, pod20 and pod22 need a kind whose default policy is orphan (custom resources have none)',
    cases: orphanRows.filter((r) => r[4]).map(deleteRow),
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeletionPropagation',
    lines: '1896-2115',
    checks: 'the finalizers a DELETE leaves, by propagationPolicy and the garbage-collector finalizers there',
    scope: 'partial',
    why: '"no existing finalizers, Default, orphanDeleteStrategy" needs a kind whose default policy is orphan',
    cases: propagationRows.filter((r) => r[4]).map(deleteRow),
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollection',
    lines: '2128-2170',
    checks: 'DeleteCollection deletes every object, listing in pages',
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollectionNoMutateOptions',
    lines: '2172-2200',
    checks: 'DeleteCollection does not change the options it is given',
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollectionNotFound',
    lines: '2202-2241',
    checks: 'DeleteCollection racing deletes of single objects',
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollectionWorkDistributorExited',
    lines: '2243-2272',
    checks: "DeleteCollection's workers end",
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollectionWithContextCancellation',
    lines: '2274-2317',
    checks: 'DeleteCollection stops when its context is cancelled',
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreDeleteCollectionWithWatch',
    lines: '2321-2357',
    checks: 'a watch sees the events of DeleteCollection',
    scope: 'out',
    why: 'no DeleteCollection verb',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreWatch',
    lines: '2359-2414',
    checks: 'a watch with selectors opens and sees a create',
    scope: 'out',
    why: 'watches with selectors (the library sends every event of a kind to its informers)',
  },
  {
    file: 'store_test.go',
    test: 'TestFinalizeDelete',
    lines: '2492-2517',
    checks: 'the Status a finished delete returns',
    scope: 'out',
    why: "an internal response's shape",
  },
  {
    file: 'store_test.go',
    test: 'TestQualifiedResource',
    lines: '2535-2596',
    checks: "errors carry the request's group and resource",
    scope: 'partial',
    why: "the errors' Details (group, resource) are not modelled; the status codes are",
    cases: [
      {
        name: 'missing, created, created again',
        steps: [
          { op: 'update', name: 'foo', rv: 1, expect: { code: 404 } },
          { op: 'get', name: 'foo', expect: { code: 404 } },
          { op: 'delete', name: 'foo', expect: { code: 404 } },
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'create', name: 'foo', expect: { code: 409, message: 'already exists' } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestDeletionFinalizersForGarbageCollection',
    lines: '2628-2694',
    checks: 'the default garbage-collection policy by API group and version',
    scope: 'out',
    why: 'no API versions and no per-kind default policy',
  },
  {
    file: 'store_test.go',
    test: 'TestMarkAsDeleting',
    lines: '2696-2738',
    checks: 'markAsDeleting keeps a deletionTimestamp in the past',
    scope: 'out',
    why: "wall-clock deletionTimestamps (the library's is the marking write's resourceVersion); as written it asserts nothing (line 2733 compares a value with a pointer)",
  },
  {
    file: 'store_test.go',
    test: 'TestDeleteWithCachedObject',
    lines: '2752-2782',
    checks: 'a stale cached copy without the finalizer does not let a delete remove the object',
    scope: 'in',
    cases: [
      {
        name: 'finalizer kept',
        steps: [
          { op: 'create', name: 'foo', finalizers: [F], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200 } },
          { op: 'get', name: 'foo', expect: { code: 200, deleting: true, finalizers: [F] } },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestPreconditionalUpdateWithCachedObject',
    lines: '2784-2830',
    checks: 'after delete and re-create, an update carrying the new uid succeeds',
    scope: 'in',
    cases: [
      {
        name: 'the new incarnation updated by its uid',
        steps: [
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, gone: true } },
          { op: 'create', name: 'foo', expect: { code: 201 } },
          {
            op: 'update',
            name: 'foo',
            uid: 'stored',
            spec: { nodeName: 'machine2' },
            expect: { code: 200, spec: { nodeName: 'machine2' } },
          },
        ],
      },
    ],
  },
  {
    file: 'store_test.go',
    test: 'TestRetryDeleteValidation',
    lines: '2835-2914',
    checks: 'a delete retried after a concurrent update runs its validation again',
    scope: 'out',
    why: 'delete admission, and one request interleaved inside another (the library answers each request atomically)',
  },
  {
    file: 'store_test.go',
    test: 'TestValidateIndexers',
    lines: '2920-2964',
    checks: "the watch cache's indexer names",
    scope: 'out',
    why: 'no watch cache',
  },
  {
    file: 'store_test.go',
    test: 'TestStoreCreateGenerateNameConflict',
    lines: '2975-3033',
    checks: 'a generated name that is taken: AlreadyExists with the generate-name message; the next one succeeds',
    scope: 'in',
    cases: [
      {
        name: 'foo1 taken, then foo2',
        steps: [
          { op: 'create', name: 'foo1', expect: { code: 201 } },
          {
            op: 'create',
            generateName: 'foo',
            generated: 'foo1',
            expect: { code: 409, message: 'already exists, the server was not able to generate a unique name for the object' },
          },
          { op: 'create', generateName: 'foo', generated: 'foo2', expect: { code: 201, name: 'foo2' } },
        ],
      },
    ],
  },
  // apimachinery pkg/api/validation/objectmeta_test.go: unit tests of the metadata validation that
  // the store runs on every create and update (rest/create.go 129, rest/update.go 87-101).
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaCustomName',
    lines: '37-54',
    checks: 'a custom name validation refuses a generateName',
    scope: 'out',
    why: 'no name validation',
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaNamespaces',
    lines: '57-90',
    checks: "a namespace's format and length",
    scope: 'out',
    why: 'namespaces are not validated',
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaOwnerReferences',
    lines: '92-215',
    checks: 'owner references: a third-party owner, Event banned as owner, one controller among several, two controllers refused',
    scope: 'partial',
    why: 'no apiVersion, so no banned owners (Event); references are kept one per owner key, so four to one name are one',
    cases: [
      {
        name: 'simple success - third party extension',
        lines: '101-113',
        steps: [{ op: 'create', name: 'test', ownerReferences: [{ key: 'customresourceKind/name', uid: '1' }], expect: { code: 201 } }],
      },
      {
        name: 'two references with Controller set',
        lines: '161-194',
        steps: [
          {
            op: 'create',
            name: 'test',
            ownerReferences: [
              { key: 'customresourceKind1/name', uid: '1' },
              { key: 'customresourceKind2/name', uid: '2', controller: true },
              { key: 'customresourceKind3/name', uid: '3', controller: true },
              { key: 'customresourceKind4/name', uid: '4' },
            ],
            expect: {
              code: 422,
              message:
                'Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name',
            },
          },
        ],
      },
    ],
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaUpdateIgnoresCreationTimestamp',
    lines: '217-239',
    checks: 'creationTimestamp is immutable',
    scope: 'out',
    why: 'no creationTimestamp',
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateFinalizersUpdate',
    lines: '241-278',
    checks: 'no new finalizers on an object being deleted (the message names them); removing is allowed; adding before deletion is allowed',
    scope: 'in',
    cases: [
      {
        name: 'invalid adding finalizers',
        lines: '247-251',
        steps: [
          { op: 'create', name: 'foo', finalizers: ['x/a'], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: ['x/a', 'y/b'], expect: { code: 422, message: 'y/b' } },
        ],
      },
      {
        name: 'invalid changing finalizers',
        lines: '252-256',
        steps: [
          { op: 'create', name: 'foo', finalizers: ['x/a'], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: ['x/b'], expect: { code: 422, message: 'x/b' } },
        ],
      },
      {
        name: 'valid removing finalizers',
        lines: '257-261',
        steps: [
          { op: 'create', name: 'foo', finalizers: ['x/a', 'y/b'], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, deleting: true } },
          { op: 'update', name: 'foo', finalizers: ['x/a'], expect: { code: 200, deleting: true, finalizers: ['x/a'] } },
        ],
      },
      {
        name: 'valid adding finalizers for objects not being deleted',
        lines: '262-266',
        steps: [
          { op: 'create', name: 'foo', finalizers: ['x/a'], expect: { code: 201 } },
          { op: 'update', name: 'foo', finalizers: ['x/a', 'y/b'], expect: { code: 200, finalizers: ['x/a', 'y/b'] } },
        ],
      },
    ],
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateFinalizersPreventConflictingFinalizers',
    lines: '280-300',
    checks: 'orphan and foregroundDeletion cannot both be set',
    scope: 'in',
    cases: [
      {
        name: 'orphan and foregroundDeletion on create',
        steps: [{ op: 'create', name: 'foo', finalizers: [ORPHAN, FG], expect: { code: 422, message: 'cannot be both set' } }],
      },
    ],
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaUpdatePreventsDeletionFieldMutation',
    lines: '302-383',
    checks: 'deletionTimestamp and deletionGracePeriodSeconds cannot be set, cleared or changed by an update',
    scope: 'partial',
    why: 'no deletionGracePeriodSeconds; the store copies the stored deletionTimestamp into an update before validating (rest/update.go 140-142), so clearing it is not refused but has no effect',
    cases: [
      {
        name: 'valid without deletion fields',
        lines: '314-319',
        steps: [
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'update', name: 'foo', expect: { code: 200, unchanged: true } },
        ],
      },
      {
        name: 'invalid set deletionTimestamp',
        lines: '327-332',
        steps: [
          { op: 'create', name: 'foo', expect: { code: 201 } },
          { op: 'update', name: 'foo', deletionTimestamp: 'set', expect: { code: 422, message: 'field is immutable' } },
        ],
      },
      {
        name: 'invalid clear deletionTimestamp (at the store: kept)',
        lines: '333-338',
        steps: [
          { op: 'create', name: 'foo', finalizers: [F], expect: { code: 201 } },
          { op: 'delete', name: 'foo', expect: { code: 200, deleting: true } },
          {
            op: 'update',
            name: 'foo',
            finalizers: [F],
            deletionTimestamp: 'cleared',
            expect: { code: 200, deleting: true, unchanged: true },
          },
        ],
      },
    ],
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestObjectMetaGenerationUpdate',
    lines: '385-426',
    checks: "generation cannot go down (at the store the client's generation is replaced by the stored one)",
    scope: 'out',
    why: "the store replaces a client's generation with the stored one before validating (rest/update.go 127), as the library ignores it: no request can show the unit test's refusal",
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateObjectMetaTrimsTrailingSlash',
    lines: '429-438',
    checks: 'a generateName ending in "-" is valid',
    scope: 'out',
    why: 'no name validation',
  },
  {
    file: 'objectmeta_test.go',
    test: 'TestValidateAnnotations',
    lines: '440-500',
    checks: "annotation keys' syntax and their total size",
    scope: 'out',
    why: 'annotation keys and sizes are not validated (the library would accept the six invalid ones)',
  },
];

/** A conformance case of the library's own (not upstream's): what a custom resource answers to a PUT without resourceVersion. */
export const OWN: readonly Case[] = [
  {
    name: 'a PUT without resourceVersion: 422, a custom resource allows no unconditional update (store.go 692-699; apiextensions strategy.go 271-274)',
    steps: [
      { op: 'create', name: 'foo', expect: { code: 201 } },
      {
        op: 'update',
        name: 'foo',
        rv: 0,
        spec: { nodeName: 'machine2' },
        expect: { code: 422, message: 'must be specified for an update' },
      },
    ],
  },
];
