/** Builds an API server over an empty store with the default cluster config, for the apiserver tests. */
import { ApiStore } from '../api/store.ts';
import { defaultClusterConfig, type ClusterConfig } from '../api/cluster-config.ts';
import { SimClock } from '../util/clock.ts';
import { Rng } from '../util/rng.ts';
import { ApiServer } from './apiserver.ts';

export interface TestServer {
  readonly api: ApiServer;
  readonly store: ApiStore;
  readonly rng: Rng;
  readonly clock: SimClock;
  readonly config: ClusterConfig;
}

/** A server whose store already holds the namespaces every cluster has. */
export function makeServer(
  seed: number | string = 1,
  config: ClusterConfig = defaultClusterConfig(),
): TestServer {
  const clock = new SimClock();
  const rng = new Rng(seed);
  const store = new ApiStore(clock, rng);
  const api = new ApiServer(store, { clock, rng, config });
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  return { api, store, rng, clock, config };
}

/** The error a call throws (fails the test when it does not throw). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the call to throw');
}
