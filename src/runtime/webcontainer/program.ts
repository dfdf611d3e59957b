/**
 * The engine as a Node program, for the WebContainer host. Built by Vite into one self-contained ES
 * module (`connect.ts` imports it with `?worker&url`), mounted at `.packetpath/lib/program.mjs`, and
 * started by the bin scripts (`kubectl`, `trace`, `packetpath`; see file-tree.ts), which pass in Node's
 * `fs` so this module imports no Node built-in and bundles like browser code.
 *
 * Each invocation: restore the lab session from `.packetpath/state.json` (or start the lab), take the
 * working directory's files in as editor saves (journal `write`/`remove` steps), run the command,
 * write changed files back, save the state. `jsh` does pipes and redirections around `kubectl` as a
 * shell would; `packetpath host '<request JSON>'` answers one protocol request for the UI.
 */
import type { VariantFiles } from '../../grader/lab-schema.ts';
import { bundleLab } from './bundle-lab.ts';
import { LabSession, shellQuote } from '../lab-session.ts';
import { outputChunks, type HostState, type RequestType, type Params } from '../protocol.ts';

/** The subset of `node:fs` the program uses. */
export interface ProgramFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string): void;
  existsSync(path: string): boolean;
  readdirSync(
    path: string,
    opts: { withFileTypes: true },
  ): { name: string; isDirectory(): boolean; isFile(): boolean }[];
  mkdirSync(path: string, opts: { recursive: true }): unknown;
  rmSync(path: string, opts: { force: true }): void;
  renameSync(from: string, to: string): void;
}

export interface ProgramContext {
  /** Which bin script ran: `kubectl`, `trace` or `packetpath`. */
  readonly tool: string;
  readonly argv: readonly string[];
  readonly fs: ProgramFs;
  /** The lab's working directory (the bin scripts live in `<root>/.packetpath/bin`). */
  readonly root: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly now?: () => string;
}

export interface LabBundle {
  readonly id: string;
  readonly yaml: string;
  readonly start: Record<string, string>;
  readonly solution: Record<string, string>;
  /** A lab with variants: their files, and the learner's draw seed. */
  readonly variants?: Record<string, VariantFiles>;
  readonly seed?: number;
}

export const STATE_DIR = '.packetpath';
const SKIP = new Set([STATE_DIR, 'node_modules', '.git']);

const join = (...parts: string[]) => parts.join('/').replace(/\/+/g, '/');

/** The lab's files on disk, relative paths, skipping our own directory. */
export function readTree(fs: ProgramFs, root: string, dir = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(join(root, dir), { withFileTypes: true })) {
    if (dir === '' && SKIP.has(entry.name)) continue;
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, readTree(fs, root, rel));
    else if (entry.isFile()) out[rel] = fs.readFileSync(join(root, rel), 'utf8');
  }
  return out;
}

function writeTree(
  fs: ProgramFs,
  root: string,
  before: Record<string, string>,
  after: Record<string, string>,
): void {
  for (const [path, content] of Object.entries(after)) {
    if (before[path] === content) continue;
    const full = join(root, path);
    fs.mkdirSync(full.slice(0, full.lastIndexOf('/')) || '/', { recursive: true });
    fs.writeFileSync(full, content);
  }
  for (const path of Object.keys(before)) if (!(path in after)) fs.rmSync(join(root, path), { force: true });
}

async function openSession(ctx: ProgramContext): Promise<LabSession> {
  const { fs, root } = ctx;
  const bundle = JSON.parse(fs.readFileSync(join(root, STATE_DIR, 'lab.json'), 'utf8')) as LabBundle;
  const session = new LabSession(bundleLab(bundle), () => {}, ctx.now, bundle.seed ?? 0);
  const statePath = join(root, STATE_DIR, 'state.json');
  if (fs.existsSync(statePath)) {
    const state = JSON.parse(fs.readFileSync(statePath, 'utf8')) as HostState;
    await session.load({ kind: 'state', state });
  } else await session.load({ kind: 'fresh' });
  return session;
}

function saveSession(ctx: ProgramContext, session: LabSession): void {
  const statePath = join(ctx.root, STATE_DIR, 'state.json');
  ctx.fs.writeFileSync(`${statePath}.tmp`, JSON.stringify(session.state()));
  ctx.fs.renameSync(`${statePath}.tmp`, statePath);
}

/** Takes edits made on disk (the editor writes through wc.fs) into the session as journal steps. */
function takeDiskEdits(session: LabSession, disk: Record<string, string>): void {
  const known = session.files();
  for (const [path, content] of Object.entries(disk))
    if (known[path] !== content) session.writeFile(path, content);
  for (const path of Object.keys(known)) if (!(path in disk)) session.removeFile(path);
}

async function hostRequest(
  session: LabSession,
  type: RequestType,
  params: Record<string, unknown>,
): Promise<unknown> {
  switch (type) {
    case 'exec':
      return session.exec((params as Params<'exec'>).line);
    case 'complete': {
      const p = params as Params<'complete'>;
      return session.complete(p.line, p.cursor);
    }
    case 'incomplete':
      return session.needsMoreInput((params as Params<'incomplete'>).text);
    case 'state':
      return session.state();
    case 'validate':
      return session.validate((params as Params<'validate'>).path);
    case 'check':
      return session.check();
    case 'answer': {
      const p = params as Params<'answer'>;
      session.answer(p.check, p.choices);
      return null;
    }
    case 'report': {
      const p = params as Params<'report'>;
      return session.report(p.locale, p.submittedAt, p.learner);
    }
    case 'network':
      return session.network();
    case 'trace':
      return session.trace(params as unknown as Params<'trace'>);
    default:
      throw Object.assign(new Error(`${type}: not a request the program answers`), { code: 'unsupported' });
  }
}

/** Runs one invocation; returns the exit code. */
export async function main(ctx: ProgramContext): Promise<number> {
  const session = await openSession(ctx);
  const disk = readTree(ctx.fs, ctx.root);
  takeDiskEdits(session, disk);
  let code = 0;
  if (ctx.tool === 'packetpath') {
    const [sub, json] = ctx.argv;
    if (sub !== 'host' || json === undefined) {
      ctx.stderr("usage: packetpath host '<request JSON>'\n");
      return 2;
    }
    try {
      const { type, params } = JSON.parse(json) as { type: RequestType; params: Record<string, unknown> };
      ctx.stdout(
        JSON.stringify({ ok: true, value: (await hostRequest(session, type, params)) ?? null }) + '\n',
      );
    } catch (e) {
      const err = e as Error & { code?: string };
      ctx.stdout(
        JSON.stringify({ ok: false, error: { name: err.name, message: err.message, code: err.code } }) + '\n',
      );
      code = 1;
    }
  } else {
    const r = session.exec([ctx.tool, ...ctx.argv].map(shellQuote).join(' '));
    for (const chunk of outputChunks(r)) (chunk.stream === 'stdout' ? ctx.stdout : ctx.stderr)(chunk.text);
    code = r.exitCode;
  }
  writeTree(ctx.fs, ctx.root, disk, session.files());
  saveSession(ctx, session);
  return code;
}

(globalThis as { __packetpathProgram?: { main: typeof main } }).__packetpathProgram = { main };
