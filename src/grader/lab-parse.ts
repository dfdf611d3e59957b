/**
 * Turns lab.yaml text into a validated Lab, with errors a lab author can act on
 * (`labs/03-x/lab.yaml: checks[2].expect: Invalid option: expected one of "allowed"|"blocked"|"refused"`).
 * fairness.yaml goes through the same YAML limits and error lines.
 */
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { Fairness } from './fairness-schema.ts';
import { Lab, type LoadedLab, type VariantFiles } from './lab-schema.ts';
import { YAML_LIMITS } from '../engine/data.ts';

export class LabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabError';
  }
}

/** YAML text validated by a schema; every problem is one `source: path: message` line of the LabError. */
function parseYamlAs<T extends z.ZodType>(schema: T, source: string, yamlText: string): z.output<T> {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText, { ...YAML_LIMITS, prettyErrors: true, logLevel: 'error' });
  } catch (e) {
    throw new LabError(`${source}: ${(e as Error).message.split('\n')[0]}`);
  }
  const result = schema.safeParse(doc);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    // One line per issue: a key or value quoted in the message may itself span lines (`? |` keys).
    return `${source}: ${path ? `${path}: ` : ''}${issue.message}`.replace(/\n/g, '\\n');
  });
  throw new LabError(lines.join('\n'));
}

export function parseLab(
  source: string,
  yamlText: string,
  startFiles: Record<string, string> = {},
  solutionFiles: Record<string, string> = {},
  variantFiles?: Record<string, VariantFiles>,
): LoadedLab {
  const lab = parseYamlAs(Lab, source, yamlText);
  // Files for a variant the lab does not declare would be silently ignored: name the folder instead.
  const ids = new Set((lab.variants ?? []).map((v) => v.id));
  const stray = Object.keys(variantFiles ?? {}).filter((id) => !ids.has(id));
  if (stray.length > 0)
    throw new LabError(
      stray.map((id) => `${source}: variants/${id}/: no variant with id "${id}"`).join('\n'),
    );
  return { lab, startFiles, solutionFiles, ...(variantFiles ? { variantFiles } : {}) };
}

export function parseFairness(source: string, yamlText: string): Fairness {
  return parseYamlAs(Fairness, source, yamlText);
}
