/**
 * Writes `src/grader/lab.schema.json` from the zod schema, so editors can validate lab.yaml files
 * (`# yaml-language-server: $schema=../../src/grader/lab.schema.json` at the top of a lab.yaml).
 * Run after changing the schema: `node src/grader/node/write-json-schema.ts`. A test fails while the
 * committed file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { labJsonSchema } from '../lab-schema.ts';

export const LAB_SCHEMA_PATH = fileURLToPath(new URL('../lab.schema.json', import.meta.url));

export function labSchemaText(): string {
  return `${JSON.stringify(labJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Formatted as Prettier would, so `prettier --check .` stays clean; the test compares parsed JSON.
  writeFileSync(
    LAB_SCHEMA_PATH,
    await format(labSchemaText(), { parser: 'json', singleQuote: true, printWidth: 110 }),
  );
  console.log(`wrote ${LAB_SCHEMA_PATH}`);
}
