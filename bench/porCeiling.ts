// How much could partial-order reduction save on the move model's safety searches, at best?
// (issue 22; results in bench/README.md, "What partial-order reduction can save on the move model")
//
//   node --import tsx bench/porCeiling.ts VARIANT [narrow|coarse] [watched|blind]
//
// The variant is searched twice without its liveness properties and fairness. The first, whole
// search records every parameter each action is offered and, per step (action and parameter),
// every location it was ever seen to change: the writes, exactly, for this variant. The second
// search gives each step an optimistic footprint built from them: no declared writes the step
// never made, and reads narrowed (`narrow`, the default) to the objects of the step's own name
// (Cluster/c1 and DockerCluster/c1 for a step on either; with a Machine c1-m0, its own and c1's) in its own manager's cache, or, for
// the mover, on the two servers. `coarse` lets a controller read its manager's whole cache.
// `blind` makes the invariants and action properties read nothing, so no step is visible: what
// independence alone would save. Footprints this narrow are a ceiling, not a proposal: a real
// one must hold in every state, and a library cannot know them without the controllers' help.
import move from '../models/move.ts';
import { checkVariant, k8s, type Footprint, type Variant } from '../src/index.ts';

// The move state's fields are read by name here.
type State = any;

const [name = 'v1.9.5', reads = 'narrow', watch = 'watched'] = process.argv.slice(2);
const variant = move.variants.find((v) => v.name === name) as Variant<State> | undefined;
if (variant === undefined) {
  console.error(`no variant ${name}; one of: ${move.variants.map((v) => v.name).join(', ')}`);
  process.exit(2);
}
const properties = variant.properties.filter((p) => p.kind !== 'liveness');
const safety: Variant<State> = {
  ...variant,
  properties,
  fairness: [],
  expectedViolations: variant.expectedViolations?.filter((e) => e === 'Deadlock' || properties.some((p) => p.name === e)),
};

/** The locations where two move states differ, named as the footprints name them. */
function changed(s: State, t: State, out: Set<string>): void {
  for (const field of ['mover', 'infrastructure', 'emptied', 'deleted', 'moverRerunsLeft']) {
    const a = s.get(field);
    const b = t.get(field);
    if (a !== b && !(a?.equals?.(b) ?? false)) out.add(field);
  }
  const sk = k8s.worldMaps(s.kube);
  const tk = k8s.worldMaps(t.kube);
  for (const part of ['servers', 'pending', 'order', 'caches', 'queues', 'reconciles'] as const) {
    const x = sk.get(part) as any;
    const y = tk.get(part) as any;
    if (x === y) continue;
    for (const owner of new Set([...x.keys(), ...y.keys()])) {
      const p = part === 'servers' ? x.get(owner)?.objects : x.get(owner);
      const q = part === 'servers' ? y.get(owner)?.objects : y.get(owner);
      if (p === q) continue;
      for (const key of new Set([...(p?.keys() ?? []), ...(q?.keys() ?? [])])) {
        const u = p?.get(key);
        const v = q?.get(key);
        if (u !== v && !(u !== undefined && v !== undefined && (u.equals?.(v) ?? false))) out.add(`${part}/${owner}/${key}`);
      }
    }
  }
  if (s.kube.restartsLeft !== t.kube.restartsLeft) out.add('restartsLeft');
}

const offered = new Map<string, Map<string, unknown>>();
const writes = new Map<string, Set<string>>();
const recording: Variant<State> = {
  ...safety,
  actions: safety.actions.map((a) => ({
    ...a,
    params: a.params
      ? (s: State) => {
          const ps = [...a.params!(s)];
          const m = offered.get(a.name) ?? new Map<string, unknown>();
          offered.set(a.name, m);
          for (const p of ps) m.set(String(p), p);
          return ps;
        }
      : undefined,
    next: (s: State, p: unknown) => {
      const t = a.next(s, p);
      if (t !== undefined) {
        const id = `${a.name}(${String(p)})`;
        const w = writes.get(id) ?? new Set<string>();
        writes.set(id, w);
        changed(s, t, w);
      }
      return t;
    },
  })),
};

const MANAGER: Record<string, string> = {
  clusterController: 'capi',
  machineController: 'capi',
  dockerClusterController: 'capd',
  dockerMachineController: 'capd',
};
const KINDS = ['Cluster', 'DockerCluster', 'Machine', 'DockerMachine'];
const kindOf = (key: string) => key.slice(0, key.indexOf('/'));
const nameOf = (key: string) => key.slice(key.indexOf('/') + 1);

function footprint(action: string, p: unknown): Footprint {
  const key = String(p).split('#')[0];
  const commuting: Record<string, string> = {};
  const plain: string[] = [];
  const sync = /^(.*)Cache\.sync$/.exec(action);
  for (const at of writes.get(`${action}(${String(p)})`) ?? []) {
    // A write's watch events are appended to a cache's pending list; a cache sync takes its head.
    if (at.startsWith('pending/') || at.startsWith('order/')) commuting[at] = sync ? 'take' : 'append';
    else if (at.startsWith('queues/') && sync) commuting[at] = 'add';
    else plain.push(at);
  }
  if (sync) {
    const m = sync[1];
    const head = [`pending/${m}/${key}`, `order/${m}/${kindOf(key)}`];
    return { reads: [`caches/${m}/${key}`], writes: plain, commuting: { ...commuting, [head[0]]: 'take', [head[1]]: 'take' }, guard: head };
  }
  // A Machine's name begins with its Cluster's (c1-m0): its family is both.
  const names = [...new Set([nameOf(key), nameOf(key).split('-')[0]])];
  const family = (where: string) => KINDS.flatMap((k) => names.map((n) => `${where}/${k}/${n}`));
  if (action.startsWith('mover.')) {
    const own = ['mover', 'emptied', 'deleted', 'moverRerunsLeft', ...family('servers/source'), ...family('servers/target')];
    return { reads: [...own, 'caches/capi/Cluster/*', 'caches/capd/Cluster/*'], writes: plain, commuting };
  }
  const step = /^([^.]+)\.(.+)$/.exec(action);
  const m = step ? MANAGER[step[1]] : undefined;
  if (step && m) {
    const c = step[1];
    const mine = [`reconciles/${c}/${key}`, `queues/${c}/${key}`];
    return {
      reads: [...(reads === 'coarse' ? [`caches/${m}/*`] : family(`caches/${m}`)), ...mine],
      // Any step of a reconcile may patch its own object (so MC114 does not stop the run).
      writes: [...plain, mine[0], `servers/source/${key}`],
      commuting: {
        ...commuting,
        ...Object.fromEntries(
          ['capi', 'capd'].flatMap((x) => [
            [`pending/${x}/${key}`, 'append'],
            [`order/${x}/${kindOf(key)}`, 'append'],
          ]),
        ),
      },
      guard: step[2] === 'reconcile' ? mine : [mine[0]],
    };
  }
  return { reads: ['*'], writes: ['*'] };
}

const PROPERTY_READS: Record<string, string[]> = {
  NoFinalizerResurrection: ['emptied', 'servers/source/*'],
  SourceInfraNeverDestroyed: ['infrastructure'],
  DeletionIsFinal: ['servers/*'],
  NoNewFinalizersWhileDeleting: ['servers/*'],
  NoDeletingObjectWithoutFinalizers: ['servers/*'],
};

const summary = (r: ReturnType<typeof checkVariant>) =>
  `${r.stats.distinctStates} states, ${r.verdict}, ${r.properties.map((p) => `${p.name} ${p.status}`).join(', ')}`;
let t0 = Date.now();
const whole = checkVariant(recording, { partialOrder: false });
console.log(`whole:   ${summary(whole)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
const reduced: Variant<State> = {
  ...safety,
  properties: safety.properties.map((p) =>
    p.kind === 'invariant' || p.kind === 'action' ? { ...p, reads: watch === 'blind' ? [] : (PROPERTY_READS[p.name] ?? p.reads) } : p,
  ),
  actions: safety.actions.map((a) => ({
    ...a,
    domain: () => [...(offered.get(a.name)?.values() ?? [])],
    footprint: (p: unknown) => footprint(a.name, p),
  })),
};
t0 = Date.now();
const r = checkVariant(reduced);
console.log(`reduced: ${summary(r)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
console.log(`reduction: ${JSON.stringify(r.stats.reduction)}`);
