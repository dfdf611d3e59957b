/**
 * One kubectl invocation: parsed flags, the cluster, and the output being written. Commands write
 * to `out`/`err` as the real one writes to stdout/stderr, and throw KubectlError or the API's
 * StatusError for fatal errors (printed by `cmdutil.CheckErr`'s rules in index.ts).
 */
import {
  outputOf,
  Transcript,
  type CommandIO,
  type ExecResult,
  type OutputChunk,
  type SessionContext,
  type SessionExitHook,
  type Shows,
  type Sighting,
} from '../shell/types.ts';
import type { AnyObject } from '../api/objects.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { ParsedFlags } from './flags.ts';
import type { TemplateInput } from './printers/output.ts';
import type { KubectlHooks, KubectlHost } from './host.ts';

/** Per kind, fields an observation check may ask to have been printed (grader `looked` with `fields`). */
const TELLING_FIELDS: Readonly<Record<string, readonly string[]>> = { nodes: ['spec.podCIDR'] };

function valueAt(object: AnyObject, path: string): unknown {
  let at: unknown = object;
  for (const key of path.split('.'))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

export class KubectlContext {
  readonly host: KubectlHost;
  readonly hooks: KubectlHooks;
  readonly io: CommandIO;
  /** The command path, e.g. `get`, `create deployment`, `rollout status`. */
  readonly path: string;
  readonly flags: ParsedFlags;
  stdout = '';
  stderr = '';
  /** Both streams in write order: a warning printed before a table shows before it. */
  private readonly transcript = new Transcript();
  /** What the output displayed (get, describe): the shell records it if it reaches the terminal. */
  shows: Shows | undefined;
  /** A session the shell should open when the command ends (`exec -it`, `debug node -it`). */
  enter: (SessionContext & { readonly onExit?: SessionExitHook }) | undefined;

  constructor(host: KubectlHost, hooks: KubectlHooks, io: CommandIO, path: string, flags: ParsedFlags) {
    this.host = host;
    this.hooks = hooks;
    this.io = io;
    this.path = path;
    this.flags = flags;
  }

  /** Whether the command prints what it wrote: `-o`, or `--template` alone (PrintFlags.ToPrinter). */
  outputRequested(): boolean {
    return this.flags.string('output') !== '' || this.flags.string('template') !== '';
  }

  /** `--template`, and the files `-o go-template-file=…` and the like read (printers/output.ts). */
  templateInput(): TemplateInput {
    const files = this.host.files;
    return {
      template: this.flags.string('template'),
      readFile: (path) => {
        const text = files.read(path);
        if (text !== undefined) return { text };
        // os.ReadFile's wording: a directory opens but cannot be read.
        const listed = files.listDir(path);
        return listed !== undefined && listed.length > 0
          ? { error: `read ${path}: is a directory` }
          : { error: `open ${path}: no such file or directory` };
      },
    };
  }

  out(text: string): void {
    this.stdout += text;
    this.transcript.write('stdout', text);
  }

  err(text: string): void {
    this.stderr += text;
    this.transcript.write('stderr', text);
  }

  /** Passes on a program's output, and what it showed (`kubectl exec … -- iptables-save`). */
  relay(r: ExecResult & { readonly shows?: Shows }): void {
    if (r.shows) this.shows = r.shows;
    for (const chunk of outputOf(r)) {
      if (chunk.stream === 'stdout') this.out(chunk.text);
      else this.err(chunk.text);
    }
  }

  /**
   * The objects just printed on stdout, one sighting per kind and namespace, with the telling fields whose
   * values the output holds (a node's `spec.podCIDR` is in `describe`, `-o yaml`, a jsonpath naming it,
   * but not in `-o wide`).
   */
  showed(printed: readonly { readonly info: ResourceInfo; readonly object: AnyObject }[]): void {
    const byPlace = new Map<
      string,
      { resource: string; namespace?: string; names: string[]; fields?: string[] }
    >();
    for (const { info, object } of printed) {
      const namespace = info.namespaced ? (object.metadata.namespace ?? this.namespace) : undefined;
      const key = `${info.key}\0${namespace ?? ''}`;
      let s = byPlace.get(key);
      if (!s) {
        s = { resource: info.key, ...(namespace !== undefined ? { namespace } : {}), names: [] };
        byPlace.set(key, s);
      }
      s.names.push(object.metadata.name);
      for (const field of TELLING_FIELDS[info.key] ?? []) {
        const value = valueAt(object, field);
        if (typeof value !== 'string' || value === '' || !this.stdout.includes(value)) continue;
        if (!s.fields?.includes(field)) s.fields = [...(s.fields ?? []), field];
      }
    }
    if (byPlace.size > 0) this.shows = { stream: 'stdout', sightings: [...byPlace.values()] };
  }

  /** A listing of these kinds found nothing, and said so on stderr (`No resources found in shop namespace.`). */
  listedNone(infos: readonly ResourceInfo[]): void {
    const sightings: Sighting[] = infos.map((info) => ({
      resource: info.key,
      ...(info.namespaced ? { namespace: this.allNamespaces ? '*' : this.namespace } : {}),
      names: [],
    }));
    if (sightings.length > 0) this.shows = { stream: 'stderr', sightings };
  }

  /** What was written so far, in order; undefined while that is just stdout then stderr. */
  get output(): readonly OutputChunk[] | undefined {
    return this.transcript.order();
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
