/**
 * The network views as custom elements, for the lab island (or any page) to mount:
 * `<pp-network>` (all of it, over a `NetworkHost`), or the parts `<pp-topology>`, `<pp-walk>`,
 * `<pp-matrix>` fed with data. They import renderers and types only, never the engine.
 */
import { defineMatrixElement } from './matrix-element.ts';
import { defineNetworkElement } from './network-element.ts';
import { defineTopologyElement } from './topology-element.ts';
import { defineWalkElement } from './walk-element.ts';

export { PpTopology } from './topology-element.ts';
export { PpWalk } from './walk-element.ts';
export { PpMatrix, type TraceRequestDetail } from './matrix-element.ts';
export { PpNetwork } from './network-element.ts';
export type {
  NetworkHost,
  NetworkState,
  NetworkTraceRequest,
  NetworkTraceResult,
  ServiceMatrixCell,
} from '../../visual/state.ts';

export function defineVisualElements(): void {
  defineTopologyElement();
  defineWalkElement();
  defineMatrixElement();
  defineNetworkElement();
}
