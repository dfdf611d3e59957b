/**
 * go-yaml v2's resource limits as kubectl meets them (sigs.k8s.io/yaml → goyaml.v2), worded as it words
 * them. The JS `yaml` package has no depth limit (deep nesting costs seconds, then fails with an
 * unrelated "did not find expected key") and words its alias guard differently, so the scanner's depth
 * checks are replayed here before parsing:
 *
 * - scannerc.go `yaml_parser_increase_flow_level`: more than 10000 open `[`/`{` is
 *   `exceeded max depth of 10000`;
 * - `yaml_parser_roll_indent`: more than 10000 block indentation levels (mapping keys and `- ` entries
 *   each deeper than the last) is the same error;
 * - both are scanner errors at the last simple key's mark; yaml.go `fail` prints `line N: ` (1-based)
 *   only when that mark is past the first line.
 * - decode.go: an alias expansion out of proportion to the document is `document contains excessive
 *   aliasing` (the `yaml` package's maxAliasCount guard stands in for go-yaml's ratio check).
 */

const MAX_DEPTH = 10000;

/** The go-yaml error (`yaml: …`) a document's nesting depth triggers, or undefined. */
export function goYamlDepthError(text: string): string | undefined {
  // A cheap bound first: neither limit can be reached with fewer candidate characters or lines.
  if (text.length < MAX_DEPTH) return undefined;
  const lines = text.split('\n');
  const indents: number[] = [];
  let indent = -1;
  let flow = 0;
  const fail = (line: number): string =>
    line === 0
      ? `yaml: exceeded max depth of ${MAX_DEPTH}`
      : `yaml: line ${line + 1}: exceeded max depth of ${MAX_DEPTH}`;
  const roll = (column: number): boolean => {
    if (flow > 0 || indent >= column) return false;
    indents.push(indent);
    indent = column;
    return indents.length > MAX_DEPTH;
  };
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    let i = 0;
    while (line[i] === ' ') i++;
    if (i >= line.length || line[i] === '#') continue;
    // A line's first token unrolls the block levels deeper than its column (outside flow context).
    if (flow === 0) {
      while (indent > i) indent = indents.pop() ?? -1;
    }
    let keyStart = i;
    while (i < line.length) {
      const c = line[i]!;
      if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
      if (c === '"' || c === "'") {
        const close = line.indexOf(c, i + 1);
        i = close < 0 ? line.length : close + 1;
        continue;
      }
      if (c === '[' || c === '{') {
        flow++;
        if (flow > MAX_DEPTH) return fail(n);
        keyStart = i + 1;
      } else if (c === ']' || c === '}') {
        flow = Math.max(0, flow - 1);
      } else if (
        c === '-' &&
        flow === 0 &&
        (line[i + 1] === ' ' || i + 1 === line.length) &&
        i === keyStart
      ) {
        if (roll(i)) return fail(n);
        keyStart = i + 2;
        i += 2;
        while (line[i] === ' ') i++;
        keyStart = i;
        continue;
      } else if (c === ':' && (line[i + 1] === ' ' || i + 1 === line.length) && flow === 0) {
        if (roll(keyStart)) return fail(n);
        i++;
        while (line[i] === ' ') i++;
        keyStart = i;
        continue;
      }
      i++;
    }
  }
  return undefined;
}

/** go-yaml's wording for a `yaml` package `toJS` failure (the alias guard), after `yaml: `. */
export function goYamlToJsError(e: unknown): string {
  const message = e instanceof Error ? e.message.split('\n')[0]! : String(e);
  if (/alias/i.test(message)) return 'yaml: document contains excessive aliasing';
  return `yaml: ${message}`;
}
