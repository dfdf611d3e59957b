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

class FlowFailure {
  readonly message: string;
  readonly line: number;
  readonly context: number;
  constructor(message: string, line: number, context: number) {
    this.message = message;
    this.line = line;
    this.context = context;
  }
}

type FlowToken = { t: '[' | ']' | '{' | '}' | ',' | '?' | ':' | 'node' | 'end'; line: number };

/**
 * Tokens of one flow collection as go-yaml's scanner produces them (scannerc.go): indicators, and
 * scalars (plain ones run across lines until a flow indicator, `: ` or ` #`). Lines count from 0.
 * Undefined for an unterminated quoted scalar, a scanner error the caller words otherwise.
 */
function flowTokens(text: string, from: number): FlowToken[] | undefined {
  const tokens: FlowToken[] = [];
  let line = 0;
  for (let k = 0; k < from; k++) if (text[k] === '\n') line++;
  const blank = (c: string | undefined): boolean =>
    c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '#' && (i === 0 || blank(text[i - 1]))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ('[]{},:'.includes(c) || (c === '?' && blank(text[i + 1]))) {
      tokens.push({ t: c as FlowToken['t'], line });
      i++;
      if (c === '[' || c === '{') depth++;
      // The collection is closed: what follows is block context again.
      if ((c === ']' || c === '}') && --depth === 0) return tokens;
    } else if (c === '"' || c === "'") {
      tokens.push({ t: 'node', line });
      i++;
      for (;;) {
        if (i >= text.length) return undefined;
        const q = text[i]!;
        if (q === '\n') line++;
        if (c === '"' && q === '\\') i += text[i + 1] === '\n' ? 0 : 1;
        else if (q === c && !(c === "'" && text[i + 1] === "'")) break;
        else if (q === c) i++;
        i++;
      }
      i++;
    } else if ((c === '&' || c === '!') && !blank(text[i + 1])) {
      // Anchors and tags are node properties, not nodes.
      while (i < text.length && !blank(text[i]) && !'[]{},'.includes(text[i]!)) i++;
    } else {
      tokens.push({ t: 'node', line });
      let lineOfScalar = line;
      for (;;) {
        while (i < text.length) {
          const p = text[i]!;
          if (p === '\n' || '[]{},'.includes(p)) break;
          if (p === ':' && (blank(text[i + 1]) || '[]{},'.includes(text[i + 1]!))) break;
          if (p === '#' && blank(text[i - 1])) break;
          i++;
        }
        // A plain scalar goes on on the next non-empty line unless that line starts a token.
        let j = i;
        let l = lineOfScalar;
        while (j < text.length && blank(text[j])) {
          if (text[j] === '\n') l++;
          j++;
        }
        const next = text[j];
        if (text[i] !== '\n' || next === undefined || '[]{},#'.includes(next)) break;
        if (next === ':' && blank(text[j + 1])) break;
        i = j;
        line = l;
        lineOfScalar = l;
      }
    }
  }
  // The stream end forces a new line (yaml_parser_fetch_stream_end).
  tokens.push({ t: 'end', line: text.endsWith('\n') || text === '' ? line : line + 1 });
  return tokens;
}

/**
 * go-yaml's parser error for the flow collection that starts at `from` (parserc.go
 * parse_flow_sequence_entry / parse_flow_mapping_key / parse_node), worded as yaml.go `fail` prints
 * it: the problem token's 0-based line, else the collection's, else no line at all. Undefined when
 * the collection is well formed.
 */
export function goYamlFlowError(text: string, from: number): string | undefined {
  const tokens = flowTokens(text, from);
  if (!tokens) return undefined;
  let pos = 0;
  const peek = (): FlowToken => tokens[pos] ?? { t: 'end', line: tokens[tokens.length - 1]!.line };
  const node = (): number => {
    const tok = peek();
    if (tok.t === 'node') {
      pos++;
      return tok.line;
    }
    if (tok.t === '[' || tok.t === '{') {
      collection();
      return tok.line;
    }
    throw new FlowFailure('did not find expected node content', tok.line, tok.line);
  };
  // A key is simple when its `:` is on the line the key started on (stale simple keys).
  const value = (keyLine: number | undefined, close: FlowToken['t']): void => {
    const tok = peek();
    if (tok.t !== ':' || (keyLine !== undefined && tok.line !== keyLine)) return;
    pos++;
    const next = peek().t;
    if (next !== ',' && next !== close) node();
  };
  const collection = (): void => {
    const open = tokens[pos++]!;
    const close = open.t === '[' ? ']' : '}';
    for (let first = true; ; first = false) {
      let tok = peek();
      if (tok.t === close) {
        pos++;
        return;
      }
      if (!first) {
        if (tok.t !== ',')
          throw new FlowFailure(`did not find expected ',' or '${close}'`, tok.line, open.line);
        pos++;
        tok = peek();
        if (tok.t === close) {
          pos++;
          return;
        }
      }
      if (tok.t === '?') {
        pos++;
        const t = peek().t;
        if (t !== ':' && t !== ',' && t !== close) node();
        value(undefined, close);
      } else if (open.t === '{' && (tok.t === ':' || tok.t === ',')) {
        value(undefined, close);
      } else {
        const keyLine = node();
        value(keyLine, close);
      }
    }
  };
  try {
    collection();
    return undefined;
  } catch (e) {
    if (!(e instanceof FlowFailure)) throw e;
    const line = e.line !== 0 ? e.line : e.context;
    return line === 0 ? `yaml: ${e.message}` : `yaml: line ${line}: ${e.message}`;
  }
}
