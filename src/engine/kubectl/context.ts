/**
 * One kubectl invocation: parsed flags, the cluster, and the output being written. Commands write
 * to `out`/`err` as the real one writes to stdout/stderr, and throw KubectlError or the API's
 * StatusError for fatal errors (printed by `cmdutil.CheckErr`'s rules in index.ts).
 */
import type { CommandIO, SessionContext } from '../shell/types.ts';
import type { ParsedFlags } from './flags.ts';
import type { KubectlHooks, KubectlHost } from './host.ts';

export class KubectlContext {
  readonly host: KubectlHost;
  readonly hooks: KubectlHooks;
  readonly io: CommandIO;
  /** The command path, e.g. `get`, `create deployment`, `rollout status`. */
  readonly path: string;
  readonly flags: ParsedFlags;
  stdout = '';
  stderr = '';
  /** A session the shell should open when the command ends (`exec -it`, `debug node -it`). */
  enter: (SessionContext & { readonly onExit?: () => string | void }) | undefined;

  constructor(host: KubectlHost, hooks: KubectlHooks, io: CommandIO, path: string, flags: ParsedFlags) {
    this.host = host;
    this.hooks = hooks;
    this.io = io;
    this.path = path;
    this.flags = flags;
  }

  out(text: string): void {
    this.stdout += text;
  }

  err(text: string): void {
    this.stderr += text;
  }

  /** `-n` if given, else the context's namespace (`default`). */
  get namespace(): string {
    return this.flags.string('namespace') || 'default';
  }

  /** Whether `-n` was given explicitly (file objects in other namespaces are then an error). */
  get explicitNamespace(): boolean {
    return this.flags.string('namespace') !== '';
  }

  get allNamespaces(): boolean {
    return this.flags.bool('all-namespaces');
  }

  now(): number {
    return this.host.clock.now();
  }

  /** `kubectl <path>`, as usage errors name the command. */
  get commandPath(): string {
    return `kubectl ${this.path}`;
  }
}
