export {
  matrixView,
  serviceMatrixView,
  MAX_MATRIX_PODS,
  VERDICT_SYMBOL,
  type MatrixView,
  type MatrixColumn,
  type MatrixGridCell,
  type MatrixCell,
  type MatrixMode,
  type ServiceMatrixCell,
  type ProbeVerdict,
} from './matrix.ts';
