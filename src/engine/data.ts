/**
 * The engine's plain data, for code that must not load the engine itself (the page's main thread:
 * the lab format's parser, the editor's schema). Nothing here runs: importing this module pulls no
 * engine code into a bundle (test/e2e/page-chunks.test.ts checks the built pages).
 */
export { YAML_LIMITS } from './util/yaml-limits.ts';
export { default as k8sSchema } from './api/schema/k8s-schema.json' with { type: 'json' };
