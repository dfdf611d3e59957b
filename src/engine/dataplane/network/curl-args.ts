/**
 * curl's command line (src/tool_getparam.c): short options cluster (`-sS`, `-sSf`), a short option's
 * value may be glued on (`-m5`, `-o/dev/null`), long options take `--opt value` or `--opt=value`.
 * Unknown options are fatal with curl's own wording and exit code 2.
 */
import { utf8Length } from '../../util/encoding.ts';

export interface CurlOptions {
  readonly urls: string[];
  verbose: boolean;
  silent: boolean;
  showError: boolean;
  head: boolean;
  include: boolean;
  fail: boolean;
  insecure: boolean;
  location: boolean;
  maxTime?: number;
  connectTimeout?: number;
  output?: string;
  writeOut?: string;
  method?: string;
  data?: string;
  /** Each -d/--data-binary/--data-raw argument in order, as curl keeps them to build the body. */
  readonly dataArgs: { readonly kind: 'ascii' | 'binary' | 'raw'; readonly value: string }[];
  /** -T/--upload-file: the file curl PUTs. */
  uploadFile?: string;
  userAgent?: string;
  readonly headers: [string, string][];
}

export type CurlArgs =
  | { readonly ok: true; readonly opts: CurlOptions }
  | { readonly ok: false; readonly error: string; readonly code: number };

const FLAGS: Record<string, keyof CurlOptions> = {
  v: 'verbose',
  verbose: 'verbose',
  s: 'silent',
  silent: 'silent',
  S: 'showError',
  'show-error': 'showError',
  I: 'head',
  head: 'head',
  i: 'include',
  include: 'include',
  f: 'fail',
  fail: 'fail',
  k: 'insecure',
  insecure: 'insecure',
  L: 'location',
  location: 'location',
};
const VALUED = new Set([
  'm',
  'max-time',
  'connect-timeout',
  'o',
  'output',
  'w',
  'write-out',
  'X',
  'request',
  'H',
  'header',
  'd',
  'data',
  'data-raw',
  'data-binary',
  'data-ascii',
  'T',
  'upload-file',
  'A',
  'user-agent',
  'u',
  'user',
  'e',
  'referer',
  'retry',
  'resolve',
  'x',
  'proxy',
  'cacert',
  'cert',
  'key',
]);
const IGNORED_FLAGS = new Set([
  '4',
  'ipv4',
  'http1.1',
  'compressed',
  'no-progress-meter',
  'N',
  'no-buffer',
  'tcp-nodelay',
  'globoff',
  'g',
]);

function seconds(text: string): number | undefined {
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

export function parseCurlArgs(args: readonly string[]): CurlArgs {
  const opts: CurlOptions = {
    urls: [],
    verbose: false,
    silent: false,
    showError: false,
    head: false,
    include: false,
    fail: false,
    insecure: false,
    location: false,
    headers: [],
    dataArgs: [],
  };
  const bad = (opt: string): CurlArgs => ({
    ok: false,
    code: 2,
    error: `curl: option ${opt}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
  });
  const apply = (name: string, value: string | undefined, shown: string): CurlArgs | undefined => {
    if (value === undefined)
      return {
        ok: false,
        code: 2,
        error: `curl: option ${shown}: requires parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
      };
    switch (name) {
      case 'm':
      case 'max-time':
      case 'connect-timeout': {
        const n = seconds(value);
        if (n === undefined)
          return {
            ok: false,
            code: 2,
            error: `curl: option ${shown}: expected a proper numerical parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
          };
        if (name === 'connect-timeout') opts.connectTimeout = n;
        else opts.maxTime = n;
        return undefined;
      }
      case 'o':
      case 'output':
        opts.output = value;
        return undefined;
      case 'w':
      case 'write-out':
        opts.writeOut = value;
        return undefined;
      case 'X':
      case 'request':
        opts.method = value;
        return undefined;
      case 'H':
      case 'header': {
        const colon = value.indexOf(':');
        if (colon > 0) opts.headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()]);
        return undefined;
      }
      case 'd':
      case 'data':
      case 'data-ascii':
      case 'data-raw':
      case 'data-binary':
        opts.data = opts.data === undefined ? value : `${opts.data}&${value}`;
        opts.dataArgs.push({
          kind: name === 'data-binary' ? 'binary' : name === 'data-raw' ? 'raw' : 'ascii',
          value,
        });
        return undefined;
      case 'T':
      case 'upload-file':
        opts.uploadFile = value;
        return undefined;
      case 'A':
      case 'user-agent':
        opts.userAgent = value;
        return undefined;
      default:
        return undefined;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const flag = FLAGS[name];
      if (flag) {
        (opts as unknown as Record<string, boolean>)[flag] = true;
        continue;
      }
      if (IGNORED_FLAGS.has(name)) continue;
      if (!VALUED.has(name)) return bad(a);
      const value = eq >= 0 ? a.slice(eq + 1) : args[++i];
      const r = apply(name, value, `--${name}`);
      if (r) return r;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        const flag = FLAGS[c];
        if (flag) {
          (opts as unknown as Record<string, boolean>)[flag] = true;
          continue;
        }
        if (IGNORED_FLAGS.has(c)) continue;
        if (!VALUED.has(c)) return bad(`-${c}`);
        const rest = a.slice(j + 1);
        const value = rest !== '' ? rest : args[++i];
        const r = apply(c, value, `-${c}`);
        if (r) return r;
        break;
      }
      continue;
    }
    opts.urls.push(a);
  }
  return { ok: true, opts };
}

export interface ParsedUrl {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Host header value: the host, plus `:port` when not the scheme's default. */
  readonly hostHeader: string;
  readonly text: string;
}

/** curl's URL handling (lib/urlapi.c): a URL without scheme is guessed as http://. */
export function parseUrl(input: string): ParsedUrl | { readonly error: string; readonly code: number } {
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/:?#]*)(?::(\d*))?([^#]*)/.exec(input);
  if (!m) return { error: 'URL rejected: Malformed input to a URL function', code: 3 };
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https')
    return { error: `Protocol "${scheme}" not supported`, code: 1 };
  const host = m[2] ?? '';
  if (host === '') return { error: 'URL rejected: No host part in the URL', code: 3 };
  const defaultPort = scheme === 'https' ? 443 : 80;
  const portText = m[3];
  const port = portText === undefined || portText === '' ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port > 65535)
    return { error: 'URL rejected: Port number was not a decimal number between 0 and 65535', code: 3 };
  let path = m[4] ?? '';
  if (path === '' || path.startsWith('?')) path = `/${path}`;
  return {
    scheme,
    host,
    port,
    path,
    hostHeader: port === defaultPort ? host : `${host}:${port}`,
    text: `${scheme}://${host}${port === defaultPort ? '' : `:${port}`}${path}`,
  };
}

export interface CurlBody {
  readonly method: string;
  readonly body?: string;
  /** Request headers curl adds for the body (Content-Length, Content-Type for -d). */
  readonly headers: readonly [string, string][];
  /** The path after -T's rule (a URL ending in `/` gets the file's name appended). */
  readonly path: string;
  /** curl's warnings on stderr (an unreadable -d @file makes an empty POST). */
  readonly warnings: readonly string[];
}

/**
 * The request body as curl builds it (src/tool_getparam.c): the -d family's arguments are joined with
 * `&`; `@FILE` reads the file (`-d`/`--data-ascii` drop carriage returns and newlines,
 * `--data-binary` keeps every byte, `--data-raw` never reads a file) and an unreadable file warns
 * "Couldn't read data from file" and posts nothing from it; -T PUTs the file's bytes and fails with
 * (26) when it cannot be read. `read` returns a file's content or undefined.
 */
export function curlBody(
  opts: CurlOptions,
  path: string,
  read: (file: string) => string | undefined,
): CurlBody | { readonly error: string; readonly code: number } {
  if (opts.uploadFile !== undefined) {
    const content = read(opts.uploadFile);
    if (content === undefined)
      return { error: 'curl: (26) Failed to open/read local data from file/application\n', code: 26 };
    const name = opts.uploadFile.slice(opts.uploadFile.lastIndexOf('/') + 1);
    return {
      method: opts.method ?? 'PUT',
      body: content,
      headers: [['Content-Length', String(utf8Length(content))]],
      path: path.endsWith('/') ? `${path}${encodeURIComponent(name)}` : path,
      warnings: [],
    };
  }
  if (opts.dataArgs.length === 0)
    return { method: opts.method ?? (opts.head ? 'HEAD' : 'GET'), headers: [], path, warnings: [] };
  const warnings: string[] = [];
  const parts = opts.dataArgs.map(({ kind, value }) => {
    if (kind === 'raw' || !value.startsWith('@')) return value;
    const file = value.slice(1);
    const content = read(file);
    if (content === undefined) {
      warnings.push(`Warning: Couldn't read data from file "${file}", this makes an empty POST.\n`);
      return '';
    }
    return kind === 'ascii' ? content.replace(/[\r\n]/g, '') : content;
  });
  const body = parts.join('&');
  return {
    method: opts.method ?? 'POST',
    body,
    headers: [
      ['Content-Length', String(utf8Length(body))],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    path,
    warnings,
  };
}
