/** Above this many source pods the grid is summarised instead of drawn (and Services are not probed). */
export const MAX_MATRIX_PODS = 40;
