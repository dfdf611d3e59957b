export { walkView, type WalkStep, type WalkView, type StepCategory } from './walk.ts';
export type * from './hops.ts';
