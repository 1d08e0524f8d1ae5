// clusterctl move (cmd/clusterctl/client/cluster/mover.go, Cluster API v1.9.3 unless noted; the
// v1.9.5 ordering is PR #11814, backport #11821), one mover for every model of this folder: the
// preflight, the pause, the target copies, deleteSourceObject in either ordering, the unpause,
// and a second move where a model runs one (moveBack.ts: to a self-hosted cluster and back).
// Its client talks to the API servers directly: no cache, every read is fresh. Facts with
// their sources: docs/capi-semantics.md, "clusterctl move".
//
// A model gives the mover its place in the state (`field`), the objects it moves in mover.go's
// order, its ordering, and hooks for the ghost variables its properties read.
import { OrderedMap, Set, type RecordOf } from 'immutable';
import { action, FlatRecord, k8s, type Action, type StepEvent } from 'modelcheck';
import { DELETE_FOR_MOVE_ANNOTATION, MAX_MOVE_ATTEMPTS, PAUSED_CONDITION } from '../capi/names.ts';

type ObjectKey = k8s.ObjectKey;

export type Ordering = 'v1.9.3' | 'v1.9.5';
export type Phase = 'pause' | 'create' | 'waitPaused' | 'delete' | 'unpause' | 'done' | 'failed';
type DeleteStep = 'get' | 'annotate' | 'removeFinalizers' | 'delete';

interface MoverProps {
  /** Which of the model's moves is running (0 unless the model runs more than one). */
  move: number;
  phase: Phase;
  /** Index into the current phase's object list; in the delete phase, into the delete groups. */
  index: number;
  /**
   * In the delete phase: the object deleteSourceObject is at, or null before its first GET.
   * deleteGroup walks its group in Go map order (objectgraph.go getMoveNodes), which varies from
   * run to run, so the next object is any of the group's objects not yet done.
   */
  object: ObjectKey | null;
  /** The objects of the current delete group that deleteSourceObject has finished with. */
  done: Set<ObjectKey>;
  /** Whether an object of the current delete group exhausted its retries (deleteGroup goes on, then fails). */
  groupFailed: boolean;
  /** Where deleteSourceObject is for the current object. */
  step: DeleteStep;
  /**
   * len(sourceObj.GetFinalizers()) > 0, where sourceObj is the annotate-response copy:
   * deleteSourceObject decides on the finalizers of THAT copy, also after its DELETE.
   */
  copyHasFinalizers: boolean;
  /** The attempt of retryWithExponentialBackoff for the current object, from 1 to 10. */
  attempt: number;
}
export type Mover = RecordOf<MoverProps>;
export const Mover = FlatRecord<MoverProps>(
  { move: 0, phase: 'pause', index: 0, object: null, done: Set(), groupFailed: false, step: 'get', copyHasFinalizers: false, attempt: 1 },
  'Mover',
);

/** How the mover runs: its deleteSourceObject ordering, and design alternatives. */
export interface MoverCode {
  readonly ordering: Ordering;
  /**
   * Design alternative (a) from the upstream thread (not in any release): before its delete
   * phase the mover waits until every object it will delete carries the v1beta2 Paused=True
   * condition, which only that object's own controller sets, so each controller has observed
   * the pause.
   */
  readonly waitForPausedCondition?: boolean;
  /**
   * A design alternative of ours (not in any release, not discussed upstream): createTargetObject
   * also clears deletionTimestamp (and deletionGracePeriodSeconds) from the source copy, so that a
   * re-run can update a target object whose source object the first run already DELETEd.
   */
  readonly copyDropsDeletionTimestamp?: boolean;
}

/** One run of clusterctl move, from one management cluster to another. */
export interface MoveRun<S> {
  readonly from: string;
  readonly to: string;
  /** The phases the model runs: all of them (default), or up to the target copies only. */
  readonly through?: 'unpause' | 'create';
  /** When the user starts this move (default: at once). */
  readonly startsWhen?: (s: S) => boolean;
}

/** What the mover moves, in mover.go's order. */
export interface MovedObjects {
  readonly clusters: readonly ObjectKey[];
  /** getMoveSequence flattened: owners first. */
  readonly createOrder: readonly ObjectKey[];
  /** getMoveSequence reversed: children first, each group in any order. */
  readonly deleteGroups: readonly (readonly ObjectKey[])[];
  /** The Machines checkProvisioningCompleted reads (each must have a nodeRef). */
  readonly machines: readonly ObjectKey[];
}

export interface MoverConfig<S> {
  readonly kube: k8s.Kubernetes<S>;
  /** Where the mover sits in the model's state. */
  readonly field: { readonly get: (s: S) => Mover; readonly set: (s: S, m: Mover) => S };
  readonly moves: readonly MoveRun<S>[];
  readonly objects: MovedObjects;
  readonly code: MoverCode;
  /**
   * Whether the preflight (checkProvisioningCompleted) is modelled. A model whose objects carry
   * no provisioning status leaves it out and says so in its assumptions.
   */
  readonly preflight: boolean;
  /** The timing assumption: the delete phase starts once every cache of the source shows every Cluster paused (or gone). */
  readonly timingAssumption: boolean;
  /** Ghost variables, updated where the mover's requests succeed. */
  readonly ghosts?: {
    /** A target copy was created (201). */
    readonly created?: (s: S, key: ObjectKey) => S;
    /** The mover's patch emptied an object's finalizers. */
    readonly emptied?: (s: S, key: ObjectKey) => S;
    /** The mover's DELETE was accepted (200). */
    readonly deleted?: (s: S, key: ObjectKey) => S;
    /** The target's API server refused the update of an existing copy, with this answer. */
    readonly refused?: (s: S, answer: string) => S;
  };
}

// mover.go checkProvisioningCompleted reads this condition.
const CONTROL_PLANE_INITIALIZED = 'ControlPlaneInitialized';

/** The mover's actions (`mover.<step>`), and how it reads in traces. */
export function clusterctlMover<S>(config: MoverConfig<S>): {
  actions: Action<S, ObjectKey>[];
  view: (s: S) => OrderedMap<string, unknown>;
} {
  const { kube, field, moves, objects, code, ghosts = {} } = config;
  const { clusters: CLUSTERS, createOrder: CREATE_ORDER, deleteGroups: DELETE_GROUPS } = objects;
  const TO_DELETE = DELETE_GROUPS.flat();
  const mover = (s: S) => field.get(s);
  const setMover = (s: S, m: Mover) => field.set(s, m);
  /** A fresh position of the current move. */
  const at = (s: S, props: Partial<MoverProps>) => setMover(s, Mover({ move: mover(s).move, ...props }));
  const run = (s: S) => moves[mover(s).move];
  const from = (s: S) => run(s).from;
  const request = (s: S, server: string, call: (srv: k8s.ApiServer) => k8s.ApiResult, events?: StepEvent[]) =>
    kube.request(s, server, call, events);

  /**
   * deleteSourceObject is done with the mover's object (`failed`: its retries are exhausted).
   * deleteGroup goes on with the rest of the group and then returns the errors it gathered, which
   * ends move (mover.go deleteGroup 1164-1182, move 376-379); otherwise the next group, children
   * first, or the unpause.
   */
  const objectFinished = (s: S, failed: boolean): S => {
    const m = mover(s);
    const done = m.done.add(m.object!);
    const groupFailed = m.groupFailed || failed;
    if (done.size < DELETE_GROUPS[m.index].length) return at(s, { phase: 'delete', index: m.index, done, groupFailed });
    if (groupFailed) return setMover(s, m.merge({ phase: 'failed', done, groupFailed }));
    const index = m.index + 1;
    return index < DELETE_GROUPS.length ? at(s, { phase: 'delete', index }) : at(s, { phase: 'unpause' });
  };
  const deleted = (s: S) => objectFinished(s, false);
  /**
   * retryWithExponentialBackoff: an error retries the whole of deleteSourceObject from the GET;
   * after the tenth attempt the object is given up (newWriteBackoff, Steps 10).
   */
  const failed = (s: S): S => {
    const { attempt } = mover(s);
    if (attempt >= MAX_MOVE_ATTEMPTS) return objectFinished(s, true);
    return setMover(s, mover(s).merge({ step: 'get', copyHasFinalizers: false, attempt: attempt + 1 }));
  };
  /** The next position in a phase that walks `count` objects, or the first of `then`. */
  const nextIn = (s: S, count: number, then: Phase): S => {
    const index = mover(s).index + 1;
    return index < count ? at(s, { phase: mover(s).phase, index }) : at(s, { phase: then });
  };
  /** After the last Cluster is unpaused: the next move, if the model runs one, or done. */
  const moveFinished = (s: S): S => {
    const next = mover(s).move + 1;
    return next < moves.length ? setMover(s, Mover({ move: next })) : at(s, { phase: 'done' });
  };
  /**
   * The timing assumption: every manager's cache of the source shows every Cluster paused (or,
   * in a re-run of move after the first run removed it, shows it gone).
   */
  const everyCacheShowsPause = (s: S): boolean => {
    const source = from(s);
    return CLUSTERS.every((cluster) => {
      const gone = kube.stored(s, source, cluster) === undefined;
      return kube.config.managers.every((m) => {
        if (m.server !== source) return true;
        const cached = kube.cached(s, m.name, cluster);
        return cached === undefined ? gone : cached.spec.get('paused') === true;
      });
    });
  };
  /**
   * mover.go checkProvisioningCompleted (225-279), run by getObjectGraph after discovery: fresh
   * GETs of every Cluster and Machine in the graph (one that is gone was not discovered). Each
   * Cluster must be status.infrastructureReady with a true ControlPlaneInitialized condition
   * (and controlPlaneReady with a controlPlaneRef, which no Cluster here has); each Machine must
   * have status.nodeRef. No other kind is looked at.
   */
  const preflightPasses = (s: S, events?: StepEvent[]) => {
    const clustersReady = CLUSTERS.every((key) => {
      const res = kube.get(s, from(s), key, events);
      return (
        res.code !== 200 ||
        (res.object.status.get('infrastructureReady') === true && k8s.conditionStatus(res.object, CONTROL_PLANE_INITIALIZED) === true)
      );
    });
    const machinesReady = objects.machines.every((key) => {
      const res = kube.get(s, from(s), key, events);
      return res.code !== 200 || (res.object.status.get('nodeRef') ?? null) !== null;
    });
    return clustersReady && machinesReady;
  };
  /** A mover step on the object it is at, enabled when `when` holds. */
  const moverStep = (
    name: string,
    doc: string,
    when: (m: Mover) => boolean,
    key: (m: Mover) => ObjectKey,
    next: (s: S, key: ObjectKey, events?: StepEvent[]) => S | undefined,
  ) => action<S, ObjectKey>(`mover.${name}`, { doc, params: (s) => (when(mover(s)) ? [key(mover(s))] : []), next });
  const deleting = (step: DeleteStep) => (m: Mover) => m.phase === 'delete' && m.step === step;
  const current = (m: Mover) => m.object!;

  const actions: Action<S, ObjectKey>[] = [
    moverStep(
      'pauseCluster',
      config.preflight
        ? 'First the preflight (checkProvisioningCompleted: every Cluster infrastructure-ready with its control plane initialized, every Machine with a nodeRef; move fails otherwise); then setClusterPause(fromProxy, clusters, true): per Cluster, merge patch {"spec":{"paused":true}}, no resourceVersion.'
        : 'setClusterPause(fromProxy, clusters, true): per Cluster, merge patch {"spec":{"paused":true}}, no resourceVersion.',
      (m) => m.phase === 'pause',
      (m) => CLUSTERS[m.index],
      (s, key, events) => {
        const first = mover(s).index === 0;
        if (first && run(s).startsWhen !== undefined && !run(s).startsWhen!(s)) return undefined;
        // The preflight, before the first write of a run: a failure ends move before it has
        // changed anything. Inference: one step for the preflight's reads and the first pause,
        // since no step here changes what the preflight reads.
        if (config.preflight && first && !preflightPasses(s, events)) return setMover(s, mover(s).set('phase', 'failed'));
        const { state, response } = request(s, from(s), (srv) => k8s.mergePatch(srv, key, { spec: { paused: true } }), events);
        // A re-run of move after a crash: objectGraph.Discovery lists the source, so a Cluster
        // already gone is not in the graph and is not paused.
        // A failed write is retried (newWriteBackoff); the state is unchanged, so a retry is
        // the same step again.
        return response.code === 200 || response.code === 404 ? nextIn(state, CLUSTERS.length, 'create') : undefined;
      },
    ),
    moverStep(
      'createTargetObject',
      'createGroup, owner first: GET the source object, CREATE it in the target (already paused); on AlreadyExists, GET the existing one and UPDATE it with the source copy.',
      (m) => m.phase === 'create',
      (m) => CREATE_ORDER[m.index],
      (s, key, events) => {
        const { to } = run(s);
        const source = kube.get(s, from(s), key, events);
        // Only a re-run after a crash finds a source object gone: Discovery would not have
        // listed it, so there is nothing to create for it.
        let state = s;
        if (source.code === 200) {
          // Inference: the target copy's content is read by no property; one step for the
          // fresh GET (a read, which changes nothing) and the CREATE keeps the search smaller.
          // The copy is the source object as read, less resourceVersion, ownerReferences and
          // generateName (mover.go createTargetObject 958-971): a source object already being
          // deleted (a re-run after a crash) is sent with its deletionTimestamp, which the CREATE
          // drops (WipeObjectMetaSystemFields) and an UPDATE of an object not being deleted
          // refuses (422: the field is immutable). docs/capi-semantics.md, "clusterctl move".
          const copy = code.copyDropsDeletionTimestamp ? source.object.set('deletionTimestamp', null) : source.object;
          const created = request(s, to, (srv) => k8s.create(srv, copy), events);
          state = created.response.code === 201 && ghosts.created ? ghosts.created(created.state, key) : created.state;
          if (created.response.code === 409) {
            // AlreadyExists (a re-run, or a move back to where the object was): "try to update
            // it", with the target's resourceVersion (mover.go 1000-1014). A failed GET is an
            // error, which fails move; nothing here deletes a target object, so it does not happen.
            const existing = kube.get(state, to, key, events);
            if (existing.code !== 200) return setMover(state, mover(state).set('phase', 'failed'));
            const updated = request(
              state,
              to,
              (srv) => k8s.update(srv, copy.set('resourceVersion', existing.object.resourceVersion)),
              events,
            );
            // An error fails this object's createTargetObject; retryWithExponentialBackoff
            // tries it again, and then move fails. Inference: every retry reads the same
            // deleting source object and sends the same copy (nothing else writes the target,
            // and deletionTimestamp never leaves the source), so every retry gets the same 422:
            // move fails here.
            if (updated.response.code !== 200) {
              const answer =
                'reason' in updated.response ? `${updated.response.code} ${updated.response.reason}` : String(updated.response.code);
              const refused = ghosts.refused ? ghosts.refused(updated.state, answer) : updated.state;
              return setMover(refused, mover(refused).set('phase', 'failed'));
            }
            state = updated.state;
          }
        }
        const index = mover(s).index + 1;
        if (index < CREATE_ORDER.length) return at(state, { phase: 'create', index });
        if (run(s).through === 'create') return at(state, { phase: 'done' });
        return at(state, { phase: code.waitForPausedCondition ? 'waitPaused' : 'delete' });
      },
    ),
    ...(code.waitForPausedCondition
      ? [
          moverStep(
            'waitForPausedCondition',
            'Design alternative (a): poll every object to be deleted (fresh GETs) until each carries Paused=True; the delete phase starts only then.',
            (m) => m.phase === 'waitPaused',
            () => CLUSTERS[0],
            (s, _key, events) => {
              // Inference: once an object's controller has set Paused=True it never sets it back
              // while the source Cluster stays paused (its cache only moves forward and the
              // Cluster is never unpaused), so the reads one after the other see what a single
              // read at the last one would: one step for the whole poll. Until every object
              // shows it, the poll retries (a step that changes nothing, so it is left out).
              const all = TO_DELETE.every((key) => {
                const res = kube.get(s, from(s), key, events);
                return res.code === 200 && k8s.conditionStatus(res.object, PAUSED_CONDITION) === true;
              });
              return all ? at(s, { phase: 'delete' }) : undefined;
            },
          ),
        ]
      : []),
    action<S, ObjectKey>('mover.getSourceObject', {
      doc: "deleteSourceObject: GET the source object; NotFound counts as deleted. The first GET picks the group's next object, in any order (Go map order).",
      // A retry GETs the same object again; otherwise any object of the group not yet done.
      params: (s) => {
        const m = mover(s);
        if (!deleting('get')(m)) return [];
        return m.object !== null ? [m.object] : DELETE_GROUPS[m.index].filter((k) => !m.done.has(k));
      },
      next: (s, key, events) => {
        // The timing assumption, when on: the delete phase starts only once every cache shows
        // the pause (the create phase takes far longer than an informer's lag, in practice).
        const m = mover(s).set('object', key);
        const first = m.index === 0 && m.done.isEmpty() && m.attempt === 1;
        if (config.timingAssumption && first && !everyCacheShowsPause(s)) return undefined;
        const res = kube.get(s, from(s), key, events);
        const there = setMover(s, m);
        if (res.code === 404) return deleted(there);
        return setMover(there, m.set('step', 'annotate'));
      },
    }),
    moverStep(
      'addDeleteForMoveAnnotation',
      'deleteSourceObject: JSON patch add /metadata/annotations {delete-for-move}; the response is kept as the local copy.',
      deleting('annotate'),
      current,
      (s, key, events) => {
        const { state, response } = request(
          s,
          from(s),
          (srv) => k8s.jsonPatchAddAnnotations(srv, key, { [DELETE_FOR_MOVE_ANNOTATION]: '' }),
          events,
        );
        if (response.code !== 200) return failed(state);
        // After the annotate patch (v1.9.3) or the DELETE (v1.9.5): remove finalizers only if the
        // annotate-response copy had any, exactly as the code reads.
        const copyHasFinalizers = !response.object.finalizers.isEmpty();
        const step: DeleteStep = code.ordering === 'v1.9.3' && copyHasFinalizers ? 'removeFinalizers' : 'delete';
        return setMover(state, mover(state).merge({ step, copyHasFinalizers }));
      },
    ),
    moverStep(
      'removeFinalizers',
      'deleteSourceObject: merge patch {"metadata":{"finalizers":[]}}, no resourceVersion: empties the whole list of the latest version.',
      deleting('removeFinalizers'),
      current,
      (s, key, events) => {
        const { state, response } = request(s, from(s), (srv) => k8s.mergePatch(srv, key, { finalizers: [] }), events);
        if (response.code !== 200) return failed(state);
        const emptied = ghosts.emptied ? ghosts.emptied(state, key) : state;
        // v1.9.3: DELETE comes next. v1.9.5: this was the last write.
        return code.ordering === 'v1.9.3' ? setMover(emptied, mover(emptied).set('step', 'delete')) : deleted(emptied);
      },
    ),
    moverStep(
      'delete',
      'deleteSourceObject: DELETE with no preconditions; move does not check that the object is gone.',
      deleting('delete'),
      current,
      (s, key, events) => {
        const sent = request(s, from(s), (srv) => k8s.delete(srv, key), events);
        if (sent.response.code !== 200) return failed(sent.state);
        const state = ghosts.deleted ? ghosts.deleted(sent.state, key) : sent.state;
        if (code.ordering === 'v1.9.5' && mover(state).copyHasFinalizers)
          return setMover(state, mover(state).set('step', 'removeFinalizers'));
        return deleted(state);
      },
    ),
    moverStep(
      'unpauseTargetCluster',
      'setClusterPause(toProxy, clusters, false): per Cluster, merge patch {"spec":{"paused":null}} in the target. The source Clusters are never unpaused.',
      (m) => m.phase === 'unpause',
      (m) => CLUSTERS[m.index],
      (s, key, events) => {
        const { state, response } = request(s, run(s).to, (srv) => k8s.mergePatch(srv, key, { spec: { paused: null } }), events);
        if (response.code !== 200) return undefined;
        return mover(s).index + 1 < CLUSTERS.length ? nextIn(state, CLUSTERS.length, 'done') : moveFinished(state);
      },
    ),
  ];
  return { actions, view: (s) => moverView(mover(s), moves.length > 1) };
}

/** The mover as traces show it: deleteSourceObject's fields only in the delete phase, where they mean something. */
function moverView(m: Mover, severalMoves: boolean): OrderedMap<string, unknown> {
  const fields: [string, unknown][] = [
    ...(severalMoves ? [['move', m.move] as [string, unknown]] : []),
    ['phase', m.phase],
    ['index', m.index],
  ];
  // The group's bookkeeping only where it says something.
  if (m.object !== null) fields.push(['object', m.object]);
  if (!m.done.isEmpty()) fields.push(['done', m.done]);
  if (m.groupFailed) fields.push(['groupFailed', m.groupFailed]);
  if (m.phase === 'delete' || m.object !== null) {
    fields.push(['step', m.step], ['copyHasFinalizers', m.copyHasFinalizers], ['attempt', m.attempt]);
  }
  return OrderedMap(fields);
}
