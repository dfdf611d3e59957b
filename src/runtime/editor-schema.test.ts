import { describe, expect, it } from 'vitest';
import { kubernetesJsonSchema } from './editor-schema.ts';

describe('kubernetesJsonSchema', () => {
  const schema = kubernetesJsonSchema() as {
    oneOf: { $ref: string }[];
    definitions: Record<string, Record<string, unknown>>;
  };
  const text = JSON.stringify(schema);

  it('has one branch per kind the engine serves, each resolving to a definition', () => {
    expect(schema.oneOf.length).toBeGreaterThan(10);
    for (const { $ref } of schema.oneOf)
      expect(schema.definitions[$ref.replace('#/definitions/', '')]).toBeDefined();
  });

  it('pins apiVersion and kind, and closes structs so unknown fields are flagged', () => {
    const deployment = schema.definitions['io.k8s.api.apps.v1.Deployment'] as {
      properties: Record<string, { const?: string }>;
      additionalProperties: boolean;
    };
    expect(deployment.properties.kind?.const).toBe('Deployment');
    expect(deployment.properties.apiVersion?.const).toBe('apps/v1');
    expect(deployment.additionalProperties).toBe(false);
  });

  it('speaks only draft-07 (no words of the engine’s own format left)', () => {
    expect(text).not.toMatch(/"int-or-string"|"type":"any"|x-go-type|"format":"(int32|int64|quantity|byte)"/);
    expect(text).not.toMatch(/"\$ref":"io\./);
  });
});
