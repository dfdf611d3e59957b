/**
 * The one place that says how far any YAML we parse may expand. Every text we parse can come from a
 * learner (manifests, the editor's file, ConfigMaps) or from a file someone hands us (lab.yaml, kind
 * cluster configs): a "billion laughs" alias bomb must fail fast, like go-yaml's "excessive aliasing"
 * guard in kubectl, instead of building gigabytes of nodes. Pass these options to every `parse`,
 * `parseDocument`/`parseAllDocuments` and `toJS` call.
 */
export const YAML_LIMITS = {
  /** Resolved aliases one document may expand (the yaml package's own default, stated explicitly). */
  maxAliasCount: 100,
} as const;
