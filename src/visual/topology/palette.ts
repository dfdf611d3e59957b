/**
 * Diagram colours, following note 002's legend: blue north-south, teal (Starlight's green) the Service
 * path, amber DNS, grey the overlay, red NetworkPolicy. On the page they are Starlight's own custom
 * properties, so the diagram follows the light and the dark theme with no script; an exported file
 * has no page around it, so it gets the same colours resolved for one theme.
 */
export type PaletteName = 'css' | 'light' | 'dark';

export interface Palette {
  readonly bg: string;
  readonly text: string;
  readonly muted: string;
  readonly frame: string;
  readonly frameFill: string;
  readonly box: string;
  readonly ns: string;
  readonly nsFill: string;
  readonly ew: string;
  readonly ewFill: string;
  readonly dns: string;
  readonly dnsFill: string;
  readonly overlay: string;
  readonly policy: string;
  readonly policyFill: string;
  readonly hot: string;
}

const css: Palette = {
  bg: 'var(--sl-color-bg, #fff)',
  text: 'var(--sl-color-white, #17181c)',
  muted: 'var(--sl-color-gray-2, #353841)',
  frame: 'var(--sl-color-gray-3, #545861)',
  frameFill: 'var(--sl-color-gray-6, #eceef2)',
  box: 'var(--sl-color-bg, #fff)',
  ns: 'var(--sl-color-blue-high, #0a2f8c)',
  nsFill: 'var(--sl-color-blue-low, #dde6fd)',
  ew: 'var(--sl-color-green-high, #1f5b0b)',
  ewFill: 'var(--sl-color-green-low, #e3fbd9)',
  dns: 'var(--sl-color-orange-high, #734d0c)',
  dnsFill: 'var(--sl-color-orange-low, #fdf0d5)',
  overlay: 'var(--sl-color-gray-3, #545861)',
  policy: 'var(--sl-color-red-high, #8a0f3b)',
  policyFill: 'var(--sl-color-red-low, #fbdde8)',
  hot: 'var(--sl-color-accent, #3b4ee6)',
};

/** Starlight's light theme values (props.css, `:root[data-theme='light']`). */
const light: Palette = {
  bg: '#ffffff',
  text: '#17181c',
  muted: '#353841',
  frame: '#545861',
  frameFill: '#eceef2',
  box: '#ffffff',
  ns: '#0f2f8a',
  nsFill: '#dce3fc',
  ew: '#245c0b',
  ewFill: '#e2fbd6',
  dns: '#73510d',
  dnsFill: '#fcefd2',
  overlay: '#545861',
  policy: '#8a0f3b',
  policyFill: '#fadbe6',
  hot: '#3b4ee6',
};

/** Starlight's dark theme values (props.css, `:root`). */
const dark: Palette = {
  bg: '#17181c',
  text: '#ffffff',
  muted: '#c0c2c7',
  frame: '#888b96',
  frameFill: '#23262f',
  box: '#17181c',
  ns: '#bdcbff',
  nsFill: '#172550',
  ew: '#c4f5ad',
  ewFill: '#233a16',
  dns: '#f7e0b4',
  dnsFill: '#4c3e22',
  overlay: '#888b96',
  policy: '#f7bdd0',
  policyFill: '#4c2230',
  hot: '#6f7fff',
};

export const PALETTES: Readonly<Record<PaletteName, Palette>> = { css, light, dark };
