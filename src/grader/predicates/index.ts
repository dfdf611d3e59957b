/**
 * The predicate registry: `type: predicate` checks name one of these. Add a predicate only when a data
 * check cannot say the rule; give it a file named after the rule, zod params, and messages in both
 * languages in the catalogue.
 */
import { podsSpreadAcrossNodes } from './pods-spread-across-nodes.ts';
import type { Predicate } from './types.ts';

export type { Predicate } from './types.ts';

export const PREDICATES: Readonly<Record<string, Predicate>> = {
  'pods-spread-across-nodes': podsSpreadAcrossNodes,
};
