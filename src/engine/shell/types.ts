/**
 * What the shell needs from the commands it runs, and what commands get from the shell. kubectl, the
 * node tools (iptables-save, ipvsadm, nft, crictl…) and the in-pod tools (curl, nslookup, dig…) are
 * all CommandHandlers; the shell does quoting, pipes, redirections, variables and sessions.
 */

/** One write to stdout or stderr. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  /**
   * Both streams in the order they were written, as a terminal shows them (kubectl's `Warning:` line
   * before its table). Each stream's chunks join to exactly `stdout` / `stderr`. A result without it
   * wrote all of its stdout, then all of its stderr.
   */
  readonly output?: readonly OutputChunk[];
  readonly exitCode: number;
  /** `clear` ran: the terminal should clear its screen before printing the output (what came after it). */
  readonly clear?: boolean;
  /** `exit` ran in the outermost (host) shell: a host that can close its terminal (the CLI) may do so. */
  readonly logout?: boolean;
}

/**
 * Where a line runs: the learner's workstation, a shell inside a pod's container, or a node shell.
 * `shell` names the program that opened the session (`sh`, `bash`, `/bin/ash`…): it decides the
 * prompt and the wording of errors (`bash: x: command not found` vs busybox `sh: x: not found`).
 */
export type SessionContext =
  | { readonly kind: 'host' }
  | {
      readonly kind: 'pod';
      readonly namespace: string;
      readonly pod: string;
      readonly container: string;
      readonly shell?: string;
    }
  | { readonly kind: 'node'; readonly node: string; readonly shell?: string };

/** errno-style failure of a file operation; `fileErrorText` in `shell/vfs.ts` words it as libc does. */
export type FileError =
  | 'ENOENT'
  | 'EISDIR'
  | 'ENOTDIR'
  | 'EACCES'
  | 'EROFS'
  | 'EFBIG'
  | 'ENOTEMPTY'
  | 'EEXIST';

/**
 * A session's files as commands see them (the lab's files on the host, the container's files in a
 * pod). Paths may be absolute or relative to `cwd`; `..` never climbs above `/`.
 */
export interface SessionFiles {
  /** The shell's working directory (absolute). */
  readonly cwd: string;
  /** The session user's home directory (absolute): `~`. */
  readonly home: string;
  /** Absolute, normalised form of a path. */
  resolve(path: string): string;
  stat(path: string): 'file' | 'dir' | undefined;
  read(path: string): { readonly content: string } | { readonly error: FileError };
  write(path: string, content: string, opts?: { readonly append?: boolean }): FileError | undefined;
  remove(path: string): FileError | undefined;
  mkdir(path: string): FileError | undefined;
  /** Entry names directly inside a directory, sorted; directories have no trailing slash. */
  list(path: string): readonly string[] | FileError;
}

export interface CommandIO {
  /** What was piped or redirected in (empty when nothing was). */
  readonly stdin: string;
  readonly env: Readonly<Record<string, string>>;
  readonly context: SessionContext;
  /** True when the line was typed at an interactive prompt (so `-it` may open a session). */
  readonly interactive: boolean;
  /**
   * The session's files, relative paths resolved against the shell's working directory. Set by the
   * shell for every command it runs; handlers built without a shell (unit tests) may lack it.
   */
  readonly files?: SessionFiles;
  /** True when stdout is the terminal, not a pipe or a file (`ls` lays out columns then). */
  readonly tty?: boolean;
  /**
   * The controlling terminal, when the line was typed at one: its size (the pty's winsize) and which
   * of the command's streams are it (not a pipe, a file or `/dev/null`). `stty` and `tput` read it.
   */
  readonly terminal?: CommandTerminal;
  /** Runs an argv as the shell would run a command (for `xargs`, `env CMD`, `watch`); set by the shell. */
  readonly run?: (argv: readonly string[], stdin: string) => ExecResult;
  /** The command was started with `&`: a program that can run alongside others returns a `job`. */
  readonly background?: boolean;
}

/** A terminal's size in character cells, as `TIOCGWINSZ` reports it. */
export interface TerminalSize {
  readonly cols: number;
  readonly rows: number;
}

/** What a pty reports before anything set its size (the kernel's 0×0 reads as xterm's 80×24). */
export const DEFAULT_TERMINAL_SIZE: TerminalSize = { cols: 80, rows: 24 };

/** The widest and tallest terminal the shell accepts (bash's own limit is far larger; no screen is). */
export const MAX_TERMINAL_CELLS = 1000;

export interface CommandTerminal extends TerminalSize {
  /** False while the terminal has not reported a size (the size is then the default). */
  readonly sized: boolean;
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
}

/**
 * What the command that opened a session reports once it ends, in place of exec's `command terminated
 * with exit code N` (`kubectl run -it --restart=Never`: the deletion, then `pod ns/x terminated (Error)`).
 */
export interface SessionEnd {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** Runs when a session ends with the status of its last command. */
export type SessionExitHook = (code: number) => string | SessionEnd | void;

/**
 * A program left running by `&` (tcpdump while traffic flows): the shell goes on with the line and
 * collects what the program printed when `wait` runs or the shell that started it ends.
 */
export interface BackgroundJob {
  /** The command line `jobs` shows. */
  readonly command: string;
  /** Ends the program now (its `-c` count reached, or stopped as Ctrl-C would): what it printed then. */
  finish(): ExecResult;
  /**
   * What it printed since the last look, and whether it has ended by itself (a job that lasts across
   * interactive prompt lines is looked at after each line).
   */
  poll?(): { readonly output: ExecResult; readonly done: boolean };
}

/**
 * Objects a command's output displayed (`kubectl get`/`describe` print them): what the learner saw,
 * once that output reaches the terminal. Kinds are the API's resource keys; the shell knows no cluster.
 */
export interface Sighting {
  /** The resource key: `pods`, `endpointslices.discovery.k8s.io`. */
  readonly resource: string;
  /** The objects' namespace; `*` for a listing across all namespaces; absent for cluster-scoped kinds. */
  readonly namespace?: string;
  /** The objects shown, by name; empty when the listing found none (`No resources found`). */
  readonly names: readonly string[];
  /** Where a node tool's output came from: the node (`kind-worker`), or `namespace/pod` for a pod's netns. */
  readonly on?: string;
  /** Fields whose values the output printed, beyond the name (`spec.podCIDR`: `describe`, `-o yaml`). */
  readonly fields?: readonly string[];
}

/** What a command's output showed, and on which stream (a listing that found nothing says so on stderr). */
export interface Shows {
  readonly stream: OutputChunk['stream'];
  readonly sightings: readonly Sighting[];
  /** A listing that prints nothing when there is nothing to list (`iptables-save` of empty tables) showed it all the same. */
  readonly evenEmpty?: boolean;
}

export interface CommandResult extends ExecResult {
  /** What the output displayed, for the shell to record if it reaches the terminal (see Sighting). */
  readonly shows?: Shows;
  /**
   * Opens a nested session (`kubectl exec -it … -- sh`, `kubectl debug node/… -it`); `exit` leaves it.
   * `onExit` runs when the session ends; text it returns is what the opening command prints then, on
   * stdout (`kubectl run --rm -it`: `pod "t" deleted from default namespace`).
   */
  readonly enter?: SessionContext & { readonly onExit?: SessionExitHook };
  /** Set when the program keeps running in the background (it was started with `&` and supports it). */
  readonly job?: BackgroundJob;
  /** Asks the shell to clear the screen (`clear`, Ctrl+L is the terminal's). */
  readonly clear?: boolean;
}

export type CommandHandler = (argv: readonly string[], io: CommandIO) => CommandResult;

/** Which shell runs a session: its prompt and error wording follow the real program. */
export type ShellFlavour = 'bash' | 'ash' | 'dash';

/**
 * What the shell needs to know about a pod or node session: the real shell it imitates, the
 * user and host names for the prompt, the process environment, and the files the kubelet (or the
 * node) provides. Files are read fresh on every access, so `/etc/resolv.conf` follows the cluster.
 */
export interface SessionEnvironment {
  readonly flavour: ShellFlavour;
  readonly user: string;
  readonly hostname: string;
  readonly home: string;
  /** Working directory the session starts in (the image's WORKDIR, `/` by default). */
  readonly cwd: string;
  /** The process environment, in the order `env` prints it. */
  readonly env: Readonly<Record<string, string>>;
  /** Read-only base files by absolute path (`/etc/resolv.conf`, `/etc/hosts`, …). */
  files(): Readonly<Record<string, string>>;
  /** Directories of the base that hold no file (a node's `/srv`, seen in a debug pod at `/host/srv`). */
  dirs?(): readonly string[];
  /** Absolute path of an executable, for `which`/`type` (undefined when the image lacks it). */
  commandPath?(name: string): string | undefined;
  /**
   * The container's writable layer, kept by the node: writes made by one exec are there for the next
   * one and travel in the snapshot. Without it a session's writes last as long as the session.
   */
  readonly layer?: WritableLayer;
}

/** A container's writes over its image (`null` = removed) and the directories it made. */
export interface LayerContents {
  readonly files: Readonly<Record<string, string | null>>;
  readonly dirs: readonly string[];
}

/** The copy-on-write layer containerd's snapshotter gives each container (read fresh, saved whole). */
export interface WritableLayer {
  read(): LayerContents;
  write(contents: LayerContents): void;
}

/** Resolves a command name in a session context; undefined means "command not found". */
export interface CommandResolver {
  (name: string, context: SessionContext): CommandHandler | undefined;
  /**
   * What a pod or node session looks like; undefined when the pod or node is gone (the session then
   * ends as `kubectl exec` does when its container dies). Never called for the host.
   */
  environment?(context: SessionContext): SessionEnvironment | undefined;
  /**
   * Tab-completion candidates for the word being typed, given the words before it (argv[0] is the
   * command name); undefined when the resolver has no opinion (the shell then completes file names).
   */
  complete?(argv: readonly string[], current: string, context: SessionContext): readonly string[] | undefined;
  /** Command names available in a context, for completing the first word of a command. */
  names?(context: SessionContext): readonly string[];
}

/**
 * A result's writes in order: its `output`, or its stdout then its stderr when it has none. An
 * `output` that no longer joins to stdout/stderr (a result copied with `{ ...r, stdout }`) is stale
 * and ignored.
 */
export function outputOf(r: ExecResult): readonly OutputChunk[] {
  if (r.output && joins(r.output, 'stdout', r.stdout) && joins(r.output, 'stderr', r.stderr)) return r.output;
  const chunks: OutputChunk[] = [];
  if (r.stdout !== '') chunks.push({ stream: 'stdout', text: r.stdout });
  if (r.stderr !== '') chunks.push({ stream: 'stderr', text: r.stderr });
  return chunks;
}

function joins(chunks: readonly OutputChunk[], stream: OutputChunk['stream'], text: string): boolean {
  let joined = '';
  for (const c of chunks) if (c.stream === stream) joined += c.text;
  return joined === text;
}

/** Writes to both streams, kept in order; consecutive writes to one stream make one chunk. */
export class Transcript {
  private list: OutputChunk[] = [];

  write(stream: OutputChunk['stream'], text: string): void {
    if (text === '') return;
    const last = this.list[this.list.length - 1];
    if (last?.stream === stream) this.list[this.list.length - 1] = { stream, text: last.text + text };
    else this.list.push({ stream, text });
  }

  clear(): void {
    this.list = [];
  }

  /** Each stream's text, with `output` when the order matters: the streams part of a result. */
  streams(): { stdout: string; stderr: string; output?: OutputChunk[] } {
    const text = { stdout: '', stderr: '' };
    for (const c of this.list) text[c.stream] += c.text;
    const output = this.order();
    return { ...text, ...(output ? { output } : {}) };
  }

  /**
   * The chunks for a result's `output`: undefined when the order adds nothing (one stream, or all of
   * stdout before all of stderr), so plain results stay plain.
   */
  order(): OutputChunk[] | undefined {
    const [first, second, third] = this.list;
    if (third === undefined && (second === undefined || first?.stream === 'stdout')) return undefined;
    return [...this.list];
  }
}
