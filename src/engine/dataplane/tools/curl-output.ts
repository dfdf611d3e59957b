/**
 * What curl prints besides the body, per version (read from curl's sources at the tags named):
 *
 * - `-v` (7.88.1, Debian bookworm's curl in the nginx image): `*   Trying IP:PORT...`,
 *   `* Connected to HOST (IP) port PORT (#0)`, the request with `> `, the response with `< `,
 *   `* Connection #0 to host HOST left intact`.
 * - 8.x adds `* Host HOST:PORT was resolved.` / `* IPv6: (none)` / `* IPv4: …` (lib/hostip.c, names
 *   only), `* using HTTP/1.x`, `* Request completely sent off` (lib/request.c, ≥ 8.8) and drops `(#0)`;
 *   8.16+ prints `* Established connection to HOST (IP port PORT) from SRC port SPORT ` (lib/cfilters.c,
 *   trailing space included) and `left intact` names `HOST:PORT` (lib/multi.c).
 * - `{ [N bytes data]` marks body data when stdout is not the terminal (src/tool_cb_dbg.c).
 * - The progress meter (lib/progress.c) goes to stderr when stdout is not a terminal, unless `-s`:
 *   two header lines, then `\r`-rewritten lines of `%3d max5 …` fields, `--:--:--` for unknown times.
 */
export interface CurlVersion {
  readonly text: string;
  readonly major: number;
  readonly minor: number;
}

export function curlVersion(text: string): CurlVersion {
  const [major = 8, minor = 0] = text.split('.').map((p) => Number(p) || 0);
  return { text, major, minor };
}

const atLeast = (v: CurlVersion, major: number, minor: number) =>
  v.major > major || (v.major === major && v.minor >= minor);

export interface VerboseInput {
  readonly version: CurlVersion;
  readonly host: string;
  readonly port: number;
  readonly ip: string;
  readonly resolved: boolean;
  readonly localIP: string;
  readonly localPort: number;
}

export function verboseResolved(v: VerboseInput): string {
  if (!v.resolved || !atLeast(v.version, 8, 0)) return '';
  return `* Host ${v.host}:${v.port} was resolved.\n* IPv6: (none)\n* IPv4: ${v.ip}\n`;
}

export function verboseTrying(v: VerboseInput): string {
  return `*   Trying ${v.ip}:${v.port}...\n`;
}

export function verboseConnected(v: VerboseInput): string {
  if (!atLeast(v.version, 8, 0)) return `* Connected to ${v.host} (${v.ip}) port ${v.port} (#0)\n`;
  const line = atLeast(v.version, 8, 16)
    ? `* Established connection to ${v.host} (${v.ip} port ${v.port}) from ${v.localIP} port ${v.localPort} \n`
    : `* Connected to ${v.host} (${v.ip}) port ${v.port}\n`;
  return `${line}* using HTTP/1.x\n`;
}

export function verboseRequestSent(v: CurlVersion): string {
  return atLeast(v, 8, 8) ? '* Request completely sent off\n' : '';
}

export function verboseLeftIntact(v: VerboseInput): string {
  return atLeast(v.version, 8, 16)
    ? `* Connection #0 to host ${v.host}:${v.port} left intact\n`
    : `* Connection #0 to host ${v.host} left intact\n`;
}

const KB = 1024;
const MB = KB * 1024;

/** lib/progress.c `max5data`: five characters at most. */
export function max5(bytes: number): string {
  const b = Math.max(0, Math.floor(bytes));
  if (b < 100000) return String(b).padStart(5);
  if (b < 10000 * KB) return `${String(Math.floor(b / KB)).padStart(4)}k`;
  if (b < 100 * MB) return `${String(Math.floor(b / MB)).padStart(2)}.${Math.floor((b % MB) / (MB / 10))}M`;
  return `${String(Math.floor(b / MB)).padStart(4)}M`;
}

/** `time2str`: whole seconds, and `--:--:--` for zero or unknown. */
function timeText(ms: number | undefined): string {
  const s = ms === undefined ? 0 : Math.floor(ms / 1000);
  if (s <= 0) return '--:--:--';
  return `${String(Math.floor(s / 3600)).padStart(2)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export const PROGRESS_HEADER =
  '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
  '                                 Dload  Upload   Total   Spent    Left  Speed\n';

function progressLine(total: number, received: number, spentMs: number, done: boolean): string {
  const pct = (n: number) => String(total > 0 ? Math.floor((n * 100) / total) : 0).padStart(3);
  const speed = spentMs > 0 ? (received * 1000) / spentMs : received;
  return (
    `\r${pct(received)} ${max5(total)}  ${pct(received)} ${max5(received)}    0     0  ${max5(speed)}      0 ` +
    `${timeText(done && total > 0 ? spentMs : undefined)} ${timeText(spentMs)} --:--:-- ${max5(done ? speed : 0)}`
  );
}

/** The meter's start as a captured stderr shows it: the header and the first (empty) line. */
export function progressStart(): string {
  return `${PROGRESS_HEADER}${progressLine(0, 0, 0, false)}`;
}

/** The meter's last line, rewritten over the first with `\r`, then the newline curl ends it with. */
export function progressEnd(total: number, received: number, spentMs: number, done: boolean): string {
  return `${progressLine(total, received, spentMs, done)}\n`;
}
