// How the Kubernetes world is held (src/k8s/world.ts): one record whose fields are the parts by
// owner, which the reports show as Maps by owner name, as the world was held before.
import { describe, expect, it } from 'vitest';
import { Set } from 'immutable';
import { Fingerprinter, k8s } from 'modelcheck';
import { toItfValue } from '../../src/report/itf.ts';
import { stateToJson } from '../../src/report/stateJson.ts';
import { created, finalizerKube, THING, TinyState } from '../fixtures/k8s/tiny.ts';

/** The tiny environment's one initial world with current caches: the object stored and cached, its key queued (not yet reconciled). */
function initial(): TinyState {
  const [w] = finalizerKube().initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'none' });
  return TinyState({ kube: w });
}

const MAPS = ['servers', 'pending', 'order', 'caches', 'queues', 'reconciles', 'written', 'gc', 'restartsLeft'];

describe('the Kubernetes world', () => {
  it('reads in the --json document as Maps by owner name', () => {
    const json = stateToJson(initial()) as { kube: Record<string, Record<string, unknown>> };
    expect(Object.keys(json.kube)).toEqual(MAPS);
    const stored = (json.kube.servers.main as { objects: Record<string, { name: string; resourceVersion: number }> }).objects;
    expect(Object.keys(stored)).toEqual([THING]);
    expect(stored[THING].name).toBe('o');
    expect(stored[THING].resourceVersion).toBe(1);
    expect(json.kube.caches).toEqual({ manager: { [THING]: stored[THING] } });
    expect(json.kube.pending).toEqual({ manager: {} });
    expect(json.kube.order).toEqual({});
    expect(json.kube.queues).toEqual({ finalizerController: [THING] });
    expect(json.kube.reconciles).toEqual({ finalizerController: {} });
    expect(json.kube.restartsLeft).toBe(0);
  });

  it('reads in ITF as Maps by owner name', () => {
    const itf = toItfValue(initial()) as { kube: Record<string, unknown> };
    expect(Object.keys(itf.kube)).toEqual(MAPS);
    expect(itf.kube.queues).toEqual({ '#map': [['finalizerController', { '#set': [THING] }]] });
    expect(itf.kube.order).toEqual({ '#map': [] });
  });

  it('shows its own parts, not copies', () => {
    const w = initial().kube;
    expect(k8s.worldMaps(w).caches.get('manager')).toBe(k8s.worldMaps(w).caches.get('manager'));
    expect(k8s.worldMaps(w).servers.get('main')).toBe(k8s.serverIn(w, 'main'));
  });

  it('is a value: the same parts by whatever writes make one world, and fingerprint alike', () => {
    const w = initial().kube;
    const queued = k8s.worldMaps(w).queues.get('finalizerController')!;
    const roundTrip = k8s.withQueue(k8s.withQueue(w, 'finalizerController', Set(['Thing/other'])), 'finalizerController', queued);
    expect(roundTrip).not.toBe(w);
    expect(roundTrip.equals(w)).toBe(true);
    const fp = new Fingerprinter();
    expect(fp.hex(TinyState({ kube: roundTrip }))).toBe(fp.hex(TinyState({ kube: w })));
    expect(fp.hex(TinyState({ kube: k8s.withQueue(w, 'finalizerController', Set()) }))).not.toBe(fp.hex(TinyState({ kube: w })));
  });

  it('refuses a part of an owner its configuration does not have', () => {
    expect(() => k8s.withQueue(initial().kube, 'nobody', Set())).toThrow(
      'the Kubernetes world has no queues nobody (not in its configuration)',
    );
  });
});
