export {
  matrixView,
  VERDICT_SYMBOL,
  type MatrixView,
  type MatrixColumn,
  type MatrixGridCell,
  type MatrixCell,
  type ProbeVerdict,
} from './matrix.ts';
