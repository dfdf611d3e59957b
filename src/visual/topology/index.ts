/** The topology diagram: model (host side), layout, SVG and text renderers (pure, no engine values). */
export type * from './types.ts';
export { renderTopologySvg, exportTopologySvg, overlayText, type SvgOptions } from './svg.ts';
export { topologyText, textListHtml, type TextItem } from './text.ts';
export { layoutTopology, WIDTH } from './layout.ts';
export { PALETTES, type PaletteName } from './palette.ts';
