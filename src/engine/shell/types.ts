/**
 * What the shell needs from the commands it runs, and what commands get from the shell. kubectl, the
 * node tools (iptables-save, ipvsadm, nft, crictl…) and the in-pod tools (curl, nslookup, dig…) are
 * all CommandHandlers; the shell does quoting, pipes, redirections, variables and sessions.
 */

export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** Where a line runs: the learner's workstation, a shell inside a pod's container, or a node shell. */
export type SessionContext =
  | { readonly kind: 'host' }
  | { readonly kind: 'pod'; readonly namespace: string; readonly pod: string; readonly container: string }
  | { readonly kind: 'node'; readonly node: string; readonly debugPod?: string };

export interface CommandIO {
  /** What was piped or redirected in (empty when nothing was). */
  readonly stdin: string;
  readonly env: Readonly<Record<string, string>>;
  readonly context: SessionContext;
  /** True when the line was typed at an interactive prompt (so `-it` may open a session). */
  readonly interactive: boolean;
}

export interface CommandResult extends ExecResult {
  /** Opens a nested session (`kubectl exec -it … -- sh`, `kubectl debug node/… -it`); `exit` leaves it. */
  readonly enter?: SessionContext & { readonly onExit?: () => void };
  /** Asks the shell to clear the screen (`clear`, Ctrl+L is the terminal's). */
  readonly clear?: boolean;
}

export type CommandHandler = (argv: readonly string[], io: CommandIO) => CommandResult;

/** Resolves a command name in a session context; undefined means "command not found". */
export type CommandResolver = (name: string, context: SessionContext) => CommandHandler | undefined;

export function ok(stdout = ''): CommandResult {
  return { stdout, stderr: '', exitCode: 0 };
}

export function fail(stderr: string, exitCode = 1, stdout = ''): CommandResult {
  return { stdout, stderr, exitCode };
}
