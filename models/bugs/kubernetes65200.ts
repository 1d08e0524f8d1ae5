// kubernetes/kubernetes#88097, "Garbage collector deleted wrong resources" (children whose owners
// were "live and well" deleted after kube-controller-manager restarts; "the garbage collector
// started looking at the child resources before their parents were cached"), read as its root
// issue, kubernetes/kubernetes#65200 ("Garbage collector behavior on invalid ownerReferences ...
// is non-deterministic"), and the fix, kubernetes#92743 (v1.20). A child whose ownerReference is
// invalid (the owner is namespaced, the child in another namespace) makes the collector look for
// the owner in the child's namespace; not finding it there, the collector of v1.19 marks the
// owner's *uid* absent, and a valid child of the same owner is then judged dangling without a
// lookup and deleted, if the collector observed the invalid child before the owner. The search
// is given the collector just restarted (its graph empty, every object still to be observed
// through its informers, in any order across kinds), and asked whether it ever deletes an
// object whose owner is there.
//
// Code followed: kubernetes/kubernetes pkg/controller/garbagecollector, garbagecollector.go
// attemptToDeleteItem, classifyReferences, isDangling, graph_builder.go addDependentToOwners and
// processGraphChanges (the virtual delete event), before the fix as quoted from pre-v1.20 copies
// and after it at 02830ed24bc1ee4e69245bcb35275f16dcc2b33e (docs/kubernetes-semantics.md section
// 5; the pre-fix copies could not be tied to a commit: see the page). Reading #88097 as an
// instance of #65200 is an inference: #88097 was closed by the stale bot without a root cause.
import { Record, type RecordOf } from 'immutable';
import { actionProperty, defineModel, k8s, type Variant } from 'modelcheck';

interface StateProps {
  kube: k8s.KubeWorld;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld() }, 'Kubernetes65200State');

/** The owner, a namespaced custom resource in namespace `a`. */
const owner = k8s.object({ kind: 'App', name: 'p', namespace: 'a', uid: 'App/p#1' });
/** A valid dependent, in the owner's namespace. */
const valid = k8s.object({ kind: 'ConfigMap', name: 'c1', namespace: 'a', ownerReferences: [k8s.ownerReference(owner)] });
/** An invalid dependent: in namespace `b`, naming the same owner (copied with its references, #65200's reports). */
const invalid = k8s.object({ kind: 'ConfigMap', name: 'c2', namespace: 'b', ownerReferences: [k8s.ownerReference(owner)] });

type Version = 'v1.19' | 'v1.20';

function variant(version: Version, expectedViolations: string[]): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    managers: [],
    controllers: [],
    uids: true,
    garbageCollector: [{ server: 'main', kinds: ['App', 'ConfigMap'], absentOwnerCache: version === 'v1.19' ? 'uid' : 'identity' }],
  });
  const worlds = kube.initialWorlds(
    { main: [owner, valid, invalid].map((o) => ({ versions: [o], reconciled: true })) },
    { cacheLag: 'any' },
  );
  return {
    name: version,
    description:
      version === 'v1.19'
        ? 'The collector before kubernetes#92743: the absent-owner cache keyed by uid.'
        : 'The collector from v1.20 (kubernetes#92743): the absent-owner cache keyed by uid and namespace; a virtual owner node kept for the dependents that look for it elsewhere.',
    assumptions: [
      "An owner App in namespace a, a ConfigMap in a that it owns, and a ConfigMap in b with the same ownerReference (invalid: a namespaced owner must be in its dependent's namespace); nothing else writes.",
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w })),
    actions: kube.actions,
    properties: [
      actionProperty<State>(
        'NoLiveOwnedObjectCollected',
        "The garbage collector never deletes an object whose owner is stored in that object's namespace with the uid its reference names.",
        (s, t) => {
          for (const o of k8s.serverIn(s.kube, 'main')!.objects.values()) {
            if (k8s.serverIn(t.kube, 'main')!.objects.has(k8s.keyOf(o))) continue;
            const alive = k8s.ownerReferencesOf(o).some((r) => {
              const found = kube.stored(t, 'main', r.key);
              return found !== undefined && found.namespace === o.namespace && found.uid === r.uid;
            });
            if (alive) return false;
          }
          return true;
        },
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'kubernetes-65200',
  description:
    'kubernetes/kubernetes#88097 and #65200: the garbage collector, just restarted, meets an invalid ownerReference to a live owner. ' +
    "Does it delete the owner's valid dependent, before and after kubernetes#92743?",
  reproduces: {
    issue: 'kubernetes/kubernetes#88097',
    url: 'https://github.com/kubernetes/kubernetes/issues/88097',
    mechanism:
      "Observed before its owner, a dependent in the wrong namespace makes the collector look for the owner there; not found, the owner's uid is cached as absent, and the owner's valid dependent is deleted without a lookup.",
    uses: ['the garbage collector with its own graph and informers', 'UIDs', 'namespaces', 'informer order across kinds'],
    buggy: ['v1.19'],
    fixed: ['v1.20'],
  },
  variants: [variant('v1.19', ['NoLiveOwnedObjectCollected']), variant('v1.20', [])],
});
