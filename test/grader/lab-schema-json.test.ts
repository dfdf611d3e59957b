// src/grader/lab.schema.json is generated from the zod schema; editors validate lab.yaml files with it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { labJsonSchema } from '../../src/grader/lab-schema.ts';
import { LAB_SCHEMA_PATH } from '../../src/grader/node/write-json-schema.ts';

describe('lab.schema.json', () => {
  it('is up to date (regenerate with: node src/grader/node/write-json-schema.ts)', () => {
    expect(JSON.parse(readFileSync(LAB_SCHEMA_PATH, 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(labJsonSchema())),
    );
  });

  it('describes every check kind and the required lab fields', () => {
    const schema = labJsonSchema() as {
      required: string[];
      properties: { checks: { items: { oneOf?: unknown[]; anyOf?: unknown[] } } };
    };
    expect(schema.required).toEqual(
      expect.arrayContaining(['id', 'version', 'title', 'summary', 'steps', 'checks', 'hints']),
    );
    const kinds = JSON.stringify(schema.properties.checks);
    for (const t of [
      'resource',
      'field',
      'endpoints',
      'reachability',
      'dns',
      'output',
      'history',
      'quiz',
      'predicate',
    ]) {
      expect(kinds).toContain(`"const":"${t}"`);
    }
  });
});
