/** Small readers the plugins share for the ConfigMap text and env values their agents parse. */
import { isPlainObject } from '../../util/json.ts';
import type { Encapsulation } from './types.ts';

export const OVERHEAD: Record<Encapsulation, number> = { vxlan: 50, geneve: 50, ipip: 20, none: 0 };

export function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 65535 ? n : undefined;
}
