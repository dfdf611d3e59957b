/**
 * Sessions: the learner's host shell at the bottom of a stack, then one frame per nested shell
 * (`kubectl exec -it … -- sh`, `kubectl debug node/…`, `bash` inside `sh`). A frame holds what a
 * real shell process holds: variables, working directory, aliases, and its view of the files.
 */
import type { SessionContext, SessionEnvironment, SessionExitHook, ShellFlavour } from './types.ts';
import { LabFilesystem, layeredFilesystem, OverlayFilesystem, withDevices, type Filesystem } from './vfs.ts';
import type { LabFiles } from './lab-files.ts';

export interface Variable {
  value: string;
  exported: boolean;
}

export interface Frame {
  readonly context: SessionContext;
  readonly flavour: ShellFlavour;
  readonly user: string;
  readonly hostname: string;
  readonly home: string;
  vars: Map<string, Variable>;
  cwd: string;
  aliases: Map<string, string>;
  readonly fs: Filesystem;
  /** Directories made with mkdir (host: relative to home; sessions: absolute). */
  readonly dirs: Set<string>;
  /** A session's writes over its base files (null = removed). Unused on the host. */
  readonly overlay: Map<string, string | null>;
  readonly onExit?: SessionExitHook;
  readonly commandPath?: (name: string) => string | undefined;
  /** Opened by a shell program inside a session (`bash` in `sh`), not by kubectl. */
  readonly nested?: boolean;
  /** `$1…` of a script or `sh -c` (changed by `shift` and `set --`); none in an interactive shell. */
  args?: readonly string[];
  /** `$0` of a script (its path) or of `sh -c CMD NAME`; otherwise the shell's name. */
  readonly arg0?: string;
}

export const HOST_USER = 'learner';
export const HOST_NAME = 'packetpath';
export const HOST_HOME = '/home/learner';
const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Where the host's programs live, for `which` and `type`. */
export function hostCommandPath(name: string): string {
  return name === 'kubectl' ? '/usr/local/bin/kubectl' : `/usr/bin/${name}`;
}

export function hostFrame(files: LabFiles, dirs: Iterable<string> = []): Frame {
  const dirSet = new Set(dirs);
  const vars = new Map<string, Variable>();
  const env: [string, string][] = [
    ['HOME', HOST_HOME],
    ['LANG', 'C.UTF-8'],
    ['LOGNAME', HOST_USER],
    ['PATH', HOST_PATH],
    ['PWD', HOST_HOME],
    ['SHELL', '/bin/bash'],
    ['SHLVL', '1'],
    ['TERM', 'xterm-256color'],
    ['USER', HOST_USER],
  ];
  for (const [k, v] of env) vars.set(k, { value: v, exported: true });
  vars.set('HOSTNAME', { value: HOST_NAME, exported: false });
  return {
    context: { kind: 'host' },
    flavour: 'bash',
    user: HOST_USER,
    hostname: HOST_NAME,
    home: HOST_HOME,
    vars,
    cwd: HOST_HOME,
    aliases: new Map([['k', 'kubectl']]),
    fs: withDevices(new LabFilesystem(files, HOST_HOME, dirSet)),
    dirs: dirSet,
    overlay: new Map(),
    commandPath: hostCommandPath,
  };
}

/** Read-only projected volumes a container cannot write to. */
const READ_ONLY_MOUNTS = ['/var/run/secrets/kubernetes.io/serviceaccount'];

export function sessionFrame(
  context: SessionContext & { readonly onExit?: SessionExitHook },
  env: SessionEnvironment,
  saved?: { overlay?: Record<string, string | null>; dirs?: readonly string[] },
): Frame {
  const vars = new Map<string, Variable>();
  for (const [k, v] of Object.entries(env.env)) vars.set(k, { value: v, exported: true });
  if (!vars.has('HOME')) vars.set('HOME', { value: env.home, exported: true });
  vars.set('PWD', { value: env.cwd, exported: true });
  vars.set('SHLVL', { value: '1', exported: true });
  const overlay = new Map<string, string | null>(Object.entries(saved?.overlay ?? {}));
  const dirs = new Set(saved?.dirs ?? []);
  const { onExit, ...plainContext } = context;
  return {
    context: plainContext as SessionContext,
    flavour: env.flavour,
    user: env.user,
    hostname: env.hostname,
    home: env.home,
    vars,
    cwd: env.cwd,
    aliases: new Map(),
    // The container's own layer when the node keeps one (every exec shares it); else the session's.
    fs: withDevices(
      env.layer
        ? layeredFilesystem(
            () => env.files(),
            env.layer,
            READ_ONLY_MOUNTS,
            () => env.dirs?.() ?? [],
          )
        : new OverlayFilesystem(
            () => env.files(),
            overlay,
            dirs,
            READ_ONLY_MOUNTS,
            () => env.dirs?.() ?? [],
          ),
    ),
    dirs,
    overlay,
    onExit,
    commandPath: env.commandPath ? (n) => env.commandPath?.(n) : undefined,
  };
}

/** A subshell: its own variables, directory and aliases; the same files. */
export function subshellOf(frame: Frame): Frame {
  const vars = new Map<string, Variable>();
  for (const [k, v] of frame.vars) vars.set(k, { ...v });
  return { ...frame, vars, aliases: new Map(frame.aliases) };
}

/** The working directory as prompts show it: the home directory as `~`. */
export function displayDir(cwd: string, home: string): string {
  if (cwd === home) return '~';
  if (home !== '/' && cwd.startsWith(`${home}/`)) return `~${cwd.slice(home.length)}`;
  return cwd;
}

/**
 * The prompt each real shell shows. Host: Debian/Ubuntu bash's `\u@\h:\w\$ ` (learner@packetpath:~$).
 * Pods: Debian images' bash.bashrc sets the same PS1 (root@web-…:/#); busybox/alpine ash shows
 * `\w \$ ` (`/ # `); dash shows a bare `# ` or `$ `.
 */
export function promptFor(frame: Frame): string {
  const sign = frame.user === 'root' ? '#' : '$';
  const dir = displayDir(frame.cwd, frame.home);
  switch (frame.flavour) {
    case 'bash':
      return `${frame.user}@${frame.hostname}:${dir}${sign} `;
    case 'ash':
      return `${dir} ${sign} `;
    case 'dash':
      return `${sign} `;
  }
}

/** What `$0` and error prefixes say: bash calls itself `bash`; busybox ash and dash were run as `sh`. */
export function shellName(frame: Frame): string {
  return frame.flavour === 'bash' ? 'bash' : 'sh';
}

/** An error from the shell itself, prefixed as each shell does (`bash: x`, `sh: x`, dash `sh: 1: x`). */
export function shellError(frame: Frame, message: string): string {
  if (frame.flavour === 'dash') return `sh: 1: ${message}\n`;
  return `${shellName(frame)}: ${message}\n`;
}

export interface FrameState {
  readonly context: SessionContext;
  readonly vars: readonly (readonly [string, string, boolean])[];
  readonly cwd: string;
  readonly aliases: Readonly<Record<string, string>>;
  readonly dirs: readonly string[];
  readonly overlay: Readonly<Record<string, string | null>>;
  readonly nested?: boolean;
}

export function frameState(frame: Frame): FrameState {
  return {
    context: frame.context,
    vars: [...frame.vars].map(([k, v]) => [k, v.value, v.exported] as const),
    cwd: frame.cwd,
    aliases: Object.fromEntries(frame.aliases),
    dirs: [...frame.dirs].sort(),
    overlay: Object.fromEntries([...frame.overlay].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(frame.nested ? { nested: true } : {}),
  };
}

/** Puts saved variables, directory and aliases back into a freshly built frame. */
export function applyFrameState(frame: Frame, state: FrameState): void {
  frame.vars = new Map(state.vars.map(([k, v, e]) => [k, { value: v, exported: e }]));
  frame.cwd = state.cwd;
  frame.aliases = new Map(Object.entries(state.aliases));
}
