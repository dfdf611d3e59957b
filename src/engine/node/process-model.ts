/**
 * What a container's main process does, decided like a real runtime does: argv is the pod spec's
 * `command` (replacing the image ENTRYPOINT) plus `args` (replacing CMD), the binary must exist in
 * the image, and the program then behaves as the real one: nginx and http-echo serve, `sleep 3600`
 * sleeps, busybox's `sh` with nothing to read exits at once, `httpd -p 80` without `-f` daemonises so
 * the container's main process ends. The result is a list of timed steps the runtime plays against
 * the simulated clock (container-runtime.ts).
 *
 * Two servers binding the same port in one pod fail like the real programs: a pod is one network
 * namespace, the lower-indexed container owns the port, the other logs the program's own
 * "Address already in use" line and exits 1.
 */
import { lookPathError } from './exec-lookup.ts';
import type { Container } from 'kubernetes-types/core/v1';
import type { OutputChunk } from '../shell/types.ts';
import { formatPrintf, interpretEscapes } from '../shell/printf-format.ts';
import type { ImageProfile } from './images.ts';
import type { Responder } from './responders.ts';
import { compileScript, DATE_MARK, textSteps } from './shell-script.ts';

export interface Listener {
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  /** The program holding the socket (`nginx`, `http-echo`, `nc`). */
  readonly process: string;
  readonly responder: Responder;
  /** `0.0.0.0` for every address of the pod; `127.0.0.1` for loopback-only sockets. */
  readonly address: string;
}

/** A log line's text, or a function of the simulated time when the program prints a timestamp. */
export type LogText = string | ((ms: number) => string);

/** Where a command's fd 1 or 2 goes, relative to the enclosing command's: its stdout or stderr, nowhere, or a pipe. */
export type Dest = 'out' | 'err' | 'null' | 'pipe';

export type Step =
  /** One line the program prints (a newline follows); on stdout unless `stream` says stderr. */
  | { readonly op: 'log'; readonly text: LogText; readonly stream?: 'err' }
  /** Text written as it is, without a newline added (`printf`, a pipe stage's output). */
  | { readonly op: 'write'; readonly text: LogText; readonly stream: 'out' | 'err' }
  | { readonly op: 'sleep'; readonly ms: number }
  | { readonly op: 'status'; readonly code: number }
  /** Without a code, the shell's `exit` ends with the last command's status. */
  | { readonly op: 'exit'; readonly code?: number }
  | { readonly op: 'file'; readonly path: string; readonly exists: boolean }
  | { readonly op: 'listen'; readonly listener: Listener }
  | { readonly op: 'trap' }
  | { readonly op: 'block' }
  /** An interactive shell reading the attached terminal: it runs until the session ends (then exits). */
  | { readonly op: 'stdin' }
  | { readonly op: 'loop'; readonly body: readonly Step[] }
  /** The right side of `&&` (runs when the last status is 0) or `||` (runs when it is not). */
  | { readonly op: 'if'; readonly when: 'ok' | 'fail'; readonly body: readonly Step[] }
  /** `if … then … else … fi` on the status the condition left. */
  | { readonly op: 'branch'; readonly then: readonly Step[]; readonly else: readonly Step[] }
  /** `while`/`until` on a condition only the run decides. */
  | {
      readonly op: 'while';
      readonly until: boolean;
      readonly cond: readonly Step[];
      readonly body: readonly Step[];
    }
  /** `! pipeline`: the status becomes 1 if it was 0, else 0. */
  | { readonly op: 'not' }
  /**
   * Redirections and pipes: the body's stdout and stderr go where `out`/`err` say; what went to the
   * pipe is handed to `then` when the body ends (the later stages of the pipe), whose steps run next.
   */
  | {
      readonly op: 'io';
      readonly body: readonly Step[];
      readonly out: Dest;
      readonly err: Dest;
      readonly then?: (piped: string) => Step[];
    }
  /** A command that reads `$?`: compiled when the run reaches it. */
  | { readonly op: 'late'; readonly build: (status: number) => Step[] }
  /** A network client (wget, curl, nslookup…): what it prints and returns comes from the dataplane. */
  | { readonly op: 'tool'; readonly argv: readonly string[] };

/** What a network tool printed and returned when it ran in a container, and how long it took. */
export interface ToolOutcome {
  readonly stdout: string;
  readonly stderr: string;
  /** Both streams in the order the tool wrote them (curl -v's `*` lines before the body). */
  readonly output?: readonly OutputChunk[];
  readonly exitCode: number;
  readonly elapsedMs: number;
}

/** The outcome of the tool step reached `offsetMs` after the container instance started at `startMs`. */
export type ToolOutcomes = (
  argv: readonly string[],
  startMs: number,
  offsetMs: number,
) => ToolOutcome | undefined;

export interface Program {
  /** The main process's name, as `ps` would show it. */
  readonly process: string;
  readonly steps: readonly Step[];
  /** Set when the runtime cannot even start the process (binary missing): the runc error text. */
  readonly startError?: string;
  /** True when PID 1 reacts to the stop signal; otherwise the kubelet waits out the grace period. */
  readonly handlesStopSignal: boolean;
  /** Lines the program prints while stopping gracefully. */
  readonly stopLogs: readonly LogText[];
  /** Where its network tools' outcomes come from; without it they print nothing and succeed. */
  readonly tools?: ToolOutcomes;
  /** When and how the attached terminal session of the instance started at `startMs` ended, if it has. */
  readonly session?: (startMs: number) => { readonly at: number; readonly code: number } | undefined;
}

export interface ProcessContext {
  readonly container: Container;
  readonly profile: ImageProfile;
  readonly version: string;
  readonly podName: string;
  readonly podIP: string;
  readonly env: Readonly<Record<string, string>>;
  /** `TCP/80`-style keys of ports already bound in the pod's network namespace. */
  readonly boundPorts: ReadonlySet<string>;
}

/** argv as the runtime assembles it from the image config and the pod spec. */
export function containerArgv(container: Container, profile: ImageProfile): string[] {
  if (container.command && container.command.length > 0)
    return [...container.command, ...(container.args ?? [])];
  if (container.args && container.args.length > 0) return [...profile.entrypoint, ...container.args];
  return [...profile.entrypoint, ...profile.cmd];
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Builds the program a container runs. */
export function buildProgram(ctx: ProcessContext): Program {
  const argv = unwrapEntrypoint(containerArgv(ctx.container, ctx.profile), ctx);
  const bin = basename(argv[0] ?? '');
  const bound = new Set(ctx.boundPorts);
  const state: BuildState = { ctx, bound, trap: false, preamble: [] };
  if (!bin || !hasBinary(ctx.profile, bin, argv[0] ?? '')) {
    const what = argv[0] ?? '';
    return {
      process: bin,
      steps: [],
      startError: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ${lookPathError(what)}: unknown`,
      handlesStopSignal: true,
      stopLogs: [],
    };
  }
  const steps = [...state.preamble, ...commandSteps(argv, state, true)];
  const handles = state.trap || !['sh', 'ash', 'bash', 'zsh', 'sleep', 'tail'].includes(bin);
  return { process: bin, steps, handlesStopSignal: handles, stopLogs: stopLogsOf(bin, ctx) };
}

interface BuildState {
  readonly ctx: ProcessContext;
  readonly bound: Set<string>;
  trap: boolean;
  readonly preamble: Step[];
}

/** Entrypoint wrappers that `exec "$@"` after their own set-up (nginx's prints its configuration steps). */
function unwrapEntrypoint(argv: string[], ctx: ProcessContext): string[] {
  const first = argv[0] ?? '';
  if (first === '/docker-entrypoint.sh' || first === '/entrypoint.sh') {
    const rest = argv.slice(1);
    // Both entrypoints run the image's program when the first argument is a flag (`set -- curl "$@"`).
    const program = ctx.profile.repository.endsWith('/curl')
      ? 'curl'
      : ctx.profile.repository.endsWith('traefik')
        ? 'traefik'
        : undefined;
    if (program && (rest[0] ?? '-').startsWith('-')) return [program, ...rest];
    return rest.length > 0 ? rest : ['sh'];
  }
  return argv;
}

function hasBinary(profile: ImageProfile, bin: string, path: string): boolean {
  if (profile.entrypoint.some((e) => basename(e) === bin)) return true;
  if (profile.tools.includes(bin)) return true;
  if (bin === 'traefik' && profile.repository.endsWith('traefik')) return true;
  return path === '/agnhost' || (bin === 'httpd-foreground' && profile.tools.includes('httpd'));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** nginx / Go `log` timestamps: `2026/01/01 00:00:05`. */
export function slashTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
/** `date` in a BusyBox/coreutils shell (UTC): `Thu Jan  1 00:00:05 UTC 2026`. */
export function dateLine(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  return `${day} ${mon} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

function logLine(text: string): Step {
  if (!text.includes(DATE_MARK)) return { op: 'log', text };
  return { op: 'log', text: (ms) => text.split(DATE_MARK).join(dateLine(ms)) };
}

/** Listens, or fails the way the program fails when the port is taken. */
function listen(state: BuildState, l: Listener, onConflict: Step[]): Step[] {
  const key = `${l.protocol}/${l.port}`;
  if (state.bound.has(key)) return onConflict;
  state.bound.add(key);
  return [{ op: 'listen', listener: l }];
}

const tcp = (port: number, process: string, responder: Responder, address = '0.0.0.0'): Listener => ({
  port,
  protocol: 'TCP',
  process,
  responder,
  address,
});

function flagValue(argv: string[], names: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    for (const n of names) {
      if (a === n) return argv[i + 1];
      if (a.startsWith(`${n}=`)) return a.slice(n.length + 1);
    }
  }
  return undefined;
}

function portOf(text: string | undefined, fallback: number): number {
  const m = /(\d+)$/.exec(text ?? '');
  const n = m ? Number(m[1]) : NaN;
  return n > 0 && n < 65536 ? n : fallback;
}

/** Steps for one simple command. `main` is true for PID 1 itself (not a command inside a script). */
function commandSteps(argv: string[], state: BuildState, main: boolean): Step[] {
  const { ctx } = state;
  const bin = basename(argv[0] ?? '');
  const args = argv.slice(1);
  const goFatal = (port: number): Step[] => [
    { op: 'log', text: (ms) => `${slashTime(ms)} listen tcp :${port}: bind: address already in use` },
    { op: 'exit', code: 1 },
  ];
  switch (bin) {
    case 'sh':
    case 'ash':
    case 'bash':
    case 'zsh': {
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
      const script = args[c + 1] === '--' ? args[c + 2] : args[c + 1];
      if (c >= 0 && script !== undefined) {
        return compileScript(script, {
          env: ctx.env,
          hostname: ctx.podName,
          command: (inner) => commandSteps(inner, state, false),
        });
      }
      // With no script and no stdin attached, an interactive shell reads EOF and exits.
      return ctx.container.stdin ? [{ op: 'stdin' }] : [{ op: 'status', code: 0 }];
    }
    case 'sleep': {
      const a = args[0] ?? '';
      if (a === 'infinity' || a === 'inf') return [{ op: 'block' }];
      const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
      if (!m)
        return [
          { op: 'log', text: `sleep: invalid number '${a}'`, stream: 'err' },
          { op: 'status', code: 1 },
        ];
      const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
      return [
        { op: 'sleep', ms: Math.round(Number(m[1]) * unit * 1000) },
        { op: 'status', code: 0 },
      ];
    }
    case 'echo': {
      // BusyBox echo: -n drops the newline, -e interprets backslash escapes (off by default).
      let newline = true;
      let escapes = false;
      let i = 0;
      for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++)
        for (const f of args[i]!.slice(1))
          if (f === 'n') newline = false;
          else escapes = f === 'e';
      let text = args.slice(i).join(' ');
      if (escapes) {
        const r = interpretEscapes(text);
        text = r.text;
        if (r.stop) newline = false;
      }
      return [...textSteps(newline ? `${text}\n` : text), { op: 'status', code: 0 }];
    }
    case 'printf': {
      const rest = args[0] === '--' ? args.slice(1) : args;
      if (rest.length === 0)
        return [
          { op: 'log', text: 'printf: usage: printf FORMAT [ARGUMENT]...', stream: 'err' },
          { op: 'status', code: 2 },
        ];
      const r = formatPrintf(rest[0]!, rest.slice(1));
      return [
        ...textSteps(r.text),
        ...r.errors.map((e): Step => ({ op: 'log', text: `printf: ${e}`, stream: 'err' })),
        { op: 'status', code: r.errors.length > 0 ? 1 : 0 },
      ];
    }
    case 'true':
    case ':':
      return [{ op: 'status', code: 0 }];
    case 'false':
      return [{ op: 'status', code: 1 }];
    case 'exit':
      return [args[0] === undefined ? { op: 'exit' } : { op: 'exit', code: Number(args[0]) & 255 }];
    case 'touch':
      return [
        ...args.filter((a) => !a.startsWith('-')).map((path): Step => ({ op: 'file', path, exists: true })),
        { op: 'status', code: 0 },
      ];
    case 'rm':
      return [
        ...args.filter((a) => !a.startsWith('-')).map((path): Step => ({ op: 'file', path, exists: false })),
        { op: 'status', code: 0 },
      ];
    case 'date':
      return [
        { op: 'log', text: dateLine },
        { op: 'status', code: 0 },
      ];
    case 'hostname':
      return [
        { op: 'log', text: ctx.podName },
        { op: 'status', code: 0 },
      ];
    case 'env':
    case 'printenv':
      return [...Object.entries(ctx.env).map(([k, v]) => logLine(`${k}=${v}`)), { op: 'status', code: 0 }];
    case 'trap':
      if (args.some((a) => /^(SIG)?TERM$|^15$|^EXIT$/.test(a))) state.trap = true;
      return [{ op: 'status', code: 0 }];
    case 'tail':
      return args.includes('-f') || args.includes('-F') ? [{ op: 'block' }] : [{ op: 'status', code: 0 }];
    case 'pause':
      return [{ op: 'block' }];
    case 'nginx':
      return nginxSteps(args, state);
    case 'httpd-foreground':
      return apacheSteps(state);
    case 'httpd':
      if (ctx.profile.repository.endsWith('library/httpd')) return apacheSteps(state);
      return busyboxHttpd(args, state);
    case 'nc': {
      if (!args.some((a) => /^-\w*l/.test(a))) return [{ op: 'tool', argv }];
      const udp = args.some((a) => /^-\w*u/.test(a));
      const port = portOf(flagValue(args, ['-p']) ?? args.find((a) => /^\d+$/.test(a)), 0);
      if (!port)
        return [
          { op: 'log', text: 'nc: bad port spec' },
          { op: 'status', code: 1 },
        ];
      const l: Listener = {
        port,
        protocol: udp ? 'UDP' : 'TCP',
        process: 'nc',
        responder: { kind: 'netcat' },
        address: '0.0.0.0',
      };
      return [
        ...listen(state, l, [
          { op: 'log', text: 'nc: bind: Address already in use' },
          { op: 'exit', code: 1 },
        ]),
        { op: 'block' },
      ];
    }
    case 'http-echo': {
      const text = flagValue(args, ['-text', '--text']) ?? ctx.env.ECHO_TEXT;
      if (text === undefined)
        return [
          { op: 'log', text: (ms) => `${slashTime(ms)} [ERR] Missing -text option!` },
          { op: 'exit', code: 127 },
        ];
      const listenFlag = flagValue(args, ['-listen', '--listen']) ?? ':5678';
      const port = portOf(listenFlag, 5678);
      const status = Number(flagValue(args, ['-status-code', '--status-code']) ?? 200) || 200;
      return [
        ...listen(state, tcp(port, 'http-echo', { kind: 'http-echo', text, status }), goFatal(port)),
        { op: 'log', text: (ms) => `${slashTime(ms)} [INFO] server is listening on ${listenFlag}` },
        { op: 'block' },
      ];
    }
    case 'agnhost':
      return agnhostSteps(args, state);
    case 'whoami': {
      const port = portOf(flagValue(args, ['--port', '-port']) ?? ctx.env.WHOAMI_PORT_NUMBER, 80);
      return [
        ...listen(state, tcp(port, 'whoami', { kind: 'whoami' }), goFatal(port)),
        { op: 'log', text: (ms) => `${slashTime(ms)} Starting up on port ${port}` },
        { op: 'block' },
      ];
    }
    case 'hello-app': {
      const port = portOf(ctx.env.PORT, 8080);
      return [
        ...listen(state, tcp(port, 'hello-app', { kind: 'hello-app', version: ctx.version }), goFatal(port)),
        { op: 'log', text: (ms) => `${slashTime(ms)} Server listening on port ${port}` },
        { op: 'block' },
      ];
    }
    case 'app':
      return genericApp(state);
    case 'entry':
      // k3s's helm-install job pods run `helm` once and complete; svclb pods forward with iptables.
      if (ctx.profile.repository.endsWith('klipper-helm')) {
        return [
          { op: 'log', text: 'helm_v3 install --set-string global.systemDefaultRegistry= traefik' },
          { op: 'sleep', ms: 9000 },
          { op: 'exit', code: 0 },
        ];
      }
      return [{ op: 'block' }];
    case 'wget':
    case 'curl':
    case 'nslookup':
    case 'dig':
    case 'host':
    case 'getent':
      if (!main && !ctx.profile.tools.includes(bin))
        return [
          { op: 'log', text: `sh: ${bin}: not found`, stream: 'err' },
          { op: 'status', code: 127 },
        ];
      return [{ op: 'tool', argv }];
    case 'cat':
    case 'ls':
    case 'chroot':
    case 'ip':
    case 'ss':
    case 'iptables-save':
    case 'nft':
    case 'conntrack':
    case 'ipvsadm':
      // They print what the container's files or its network namespace hold (a debug pod's /host,
      // the node's rules from a hostNetwork netshoot): the registry runs them when the image has them.
      if (bin === 'cat' || bin === 'ls' || ctx.profile.tools.includes(bin)) return [{ op: 'tool', argv }];
      return [
        { op: 'log', text: `sh: ${bin}: not found`, stream: 'err' },
        { op: 'status', code: 127 },
      ];
    case 'mkdir':
    case 'kill':
    case 'test':
    case '[':
      return [{ op: 'status', code: 0 }];
    case 'ping':
      // Without -c it pings until stopped; its replies are not modelled.
      return args.some((a) => /^-c/.test(a)) ? [{ op: 'tool', argv }] : [{ op: 'block' }];
    default: {
      const system = systemListeners(bin, args);
      if (system) return [...system.flatMap((l) => listen(state, l, [])), { op: 'block' }];
      if (ctx.profile.tools.includes(bin)) return [{ op: 'status', code: 0 }];
      if (main) return genericApp(state);
      return [
        { op: 'log', text: `sh: ${bin}: not found`, stream: 'err' },
        { op: 'status', code: 127 },
      ];
    }
  }
}

function genericApp(state: BuildState): Step[] {
  const ports = (state.ctx.container.ports ?? []).filter((p) => (p.protocol ?? 'TCP') === 'TCP');
  return [
    ...ports.flatMap((p) => listen(state, tcp(p.containerPort, 'app', { kind: 'generic-http' }), [])),
    { op: 'block' },
  ];
}

function nginxSteps(args: string[], state: BuildState): Step[] {
  const daemonOff = args.some((a) => a.replace(/\s+/g, ' ').includes('daemon off'));
  const v = state.ctx.version;
  const notice = (text: string): Step => ({
    op: 'log',
    text: (ms) => `${slashTime(ms)} [notice] 1#1: ${text}`,
  });
  if (state.bound.has('TCP/80')) {
    const emerg = (ms: number) =>
      `${slashTime(ms)} [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address already in use)`;
    const tries: Step[] = [];
    for (let i = 0; i < 5; i++) {
      tries.push(
        { op: 'log', text: emerg },
        { op: 'log', text: 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)' },
      );
      tries.push({
        op: 'log',
        text: (ms) => `${slashTime(ms)} [emerg] 1#1: bind() to [::]:80 failed (98: Address already in use)`,
      });
      tries.push(
        { op: 'log', text: 'nginx: [emerg] bind() to [::]:80 failed (98: Address already in use)' },
        { op: 'sleep', ms: 500 },
      );
    }
    return [
      ...entrypointLines(state),
      ...tries,
      { op: 'log', text: (ms) => `${slashTime(ms)} [emerg] 1#1: still could not bind()` },
      { op: 'log', text: 'nginx: [emerg] still could not bind()' },
      { op: 'exit', code: 1 },
    ];
  }
  state.bound.add('TCP/80');
  const lines: Step[] = [
    ...entrypointLines(state),
    { op: 'listen', listener: tcp(80, 'nginx', { kind: 'nginx', version: v }) },
    notice('using the "epoll" event method'),
    notice(`nginx/${v}`),
    notice('built by gcc 12.2.0 (Debian 12.2.0-14+deb12u1) '),
    notice('OS: Linux 6.8.0-90-generic'),
    notice('getrlimit(RLIMIT_NOFILE): 1048576:1048576'),
    notice('start worker processes'),
  ];
  for (let pid = 29; pid < 33; pid++) lines.push(notice(`start worker process ${pid}`));
  // Without `daemon off;` the master forks into the background and PID 1 returns: the container ends.
  return daemonOff ? [...lines, { op: 'block' }] : [...lines, { op: 'status', code: 0 }];
}

function entrypointLines(state: BuildState): Step[] {
  if (!state.ctx.profile.entrypoint.includes('/docker-entrypoint.sh')) return [];
  return [
    '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
    '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
    '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
    '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
    '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
    '/docker-entrypoint.sh: Configuration complete; ready for start up',
  ].map((text): Step => ({ op: 'log', text }));
}

function apacheSteps(state: BuildState): Step[] {
  const v = state.ctx.version;
  const stamp = (ms: number) => {
    const d = new Date(ms);
    const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
    const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
      d.getUTCMonth()
    ];
    return `[${day} ${mon} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000 ${d.getUTCFullYear()}]`;
  };
  const fqdn = `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${state.ctx.podIP}. Set the 'ServerName' directive globally to suppress this message`;
  const conflict: Step[] = [
    { op: 'log', text: '(98)Address already in use: AH00072: make_sock: could not bind to address [::]:80' },
    {
      op: 'log',
      text: '(98)Address already in use: AH00072: make_sock: could not bind to address 0.0.0.0:80',
    },
    { op: 'log', text: 'no listening sockets available, shutting down' },
    { op: 'log', text: 'AH00015: Unable to open logs' },
    { op: 'exit', code: 1 },
  ];
  return [
    { op: 'log', text: fqdn },
    { op: 'log', text: fqdn },
    ...listen(state, tcp(80, 'httpd', { kind: 'httpd', version: v }), conflict),
    {
      op: 'log',
      text: (ms) =>
        `${stamp(ms)} [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/${v} (Unix) configured -- resuming normal operations`,
    },
    {
      op: 'log',
      text: (ms) => `${stamp(ms)} [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'`,
    },
    { op: 'block' },
  ];
}

function busyboxHttpd(args: string[], state: BuildState): Step[] {
  const port = portOf(flagValue(args, ['-p']), 80);
  const conflict: Step[] = [
    { op: 'log', text: 'httpd: bind: Address already in use' },
    { op: 'exit', code: 1 },
  ];
  const steps = listen(state, tcp(port, 'httpd', { kind: 'busybox-httpd' }), conflict);
  // `-f` keeps httpd in the foreground; without it BusyBox httpd daemonises and the command returns.
  return args.includes('-f') ? [...steps, { op: 'block' }] : [...steps, { op: 'status', code: 0 }];
}

function agnhostSteps(args: string[], state: BuildState): Step[] {
  const sub = args[0] ?? '';
  const klog = (text: string): Step => ({
    op: 'log',
    text: (ms) => {
      const d = new Date(ms);
      return `I${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000       1 ${text}`;
    },
  });
  const fatal = (port: number): Step[] => [
    {
      op: 'log',
      text: `F0101 00:00:00.000000       1 log.go:245] listen tcp :${port}: bind: address already in use`,
    },
    { op: 'exit', code: 255 },
  ];
  switch (sub) {
    case 'netexec': {
      const http = portOf(flagValue(args, ['--http-port', '-http-port']), 8080);
      const udp = portOf(flagValue(args, ['--udp-port', '-udp-port']), 8081);
      const udpListener: Listener = {
        port: udp,
        protocol: 'UDP',
        process: 'agnhost',
        responder: { kind: 'agnhost-netexec' },
        address: '0.0.0.0',
      };
      return [
        ...listen(state, tcp(http, 'agnhost', { kind: 'agnhost-netexec' }), fatal(http)),
        klog(`log.go:245] Started HTTP server on port ${http}`),
        ...listen(state, udpListener, []),
        klog(`log.go:245] Started UDP server on port  ${udp}`),
        { op: 'block' },
      ];
    }
    case 'serve-hostname': {
      const port = portOf(flagValue(args, ['--port', '-port']), 9376);
      return [
        ...listen(state, tcp(port, 'agnhost', { kind: 'serve-hostname' }), fatal(port)),
        klog(`serve_hostname.go:80] Serving on port ${port}.`),
        { op: 'block' },
      ];
    }
    case 'pause':
      return [{ op: 'log', text: 'Paused' }, { op: 'block' }];
    case 'test-webserver':
      return [...listen(state, tcp(80, 'agnhost', { kind: 'generic-http' }), fatal(80)), { op: 'block' }];
    default:
      return [
        { op: 'log', text: `Error: unknown command "${sub}" for "agnhost"` },
        { op: 'exit', code: 1 },
      ];
  }
}

/** Sockets of the system components (control plane, DNS, CNI agents, add-ons). */
function systemListeners(bin: string, _args: string[]): Listener[] | undefined {
  const health = (port: number, body = 'ok', address = '0.0.0.0') =>
    tcp(port, bin, { kind: 'health', body }, address);
  const metrics = (port: number, address = '0.0.0.0') => tcp(port, bin, { kind: 'metrics' }, address);
  const tls = (port: number, address = '0.0.0.0') => tcp(port, bin, { kind: 'tls' }, address);
  switch (bin) {
    case 'coredns':
      return [
        { port: 53, protocol: 'UDP', process: 'coredns', responder: { kind: 'dns' }, address: '0.0.0.0' },
        tcp(53, 'coredns', { kind: 'dns' }),
        health(8080, 'OK'),
        health(8181, 'OK'),
        metrics(9153),
      ];
    case 'kube-proxy':
      return [metrics(10249, '127.0.0.1'), health(10256)];
    case 'etcd':
      return [tls(2379), tls(2380), metrics(2381, '127.0.0.1')];
    case 'kube-apiserver':
      return [tls(6443)];
    case 'kube-controller-manager':
      return [tls(10257, '127.0.0.1')];
    case 'kube-scheduler':
      return [tls(10259, '127.0.0.1')];
    case 'start_runit':
      return [tcp(179, 'bird', { kind: 'tls' }), health(9099, '', '127.0.0.1')];
    case 'kube-controllers':
      return [metrics(9094)];
    case 'cilium-agent':
      return [health(4240), health(9879, 'OK', '127.0.0.1'), metrics(9962)];
    case 'cilium-operator-generic':
      return [health(9234, 'ok', '127.0.0.1'), metrics(9963)];
    case 'cilium-envoy-starter':
      return [health(9878, 'ok', '127.0.0.1'), metrics(9964)];
    case 'traefik':
      return [
        tcp(8000, 'traefik', { kind: 'generic-http' }),
        tcp(8443, 'traefik', { kind: 'tls' }),
        metrics(9100),
        health(8080, 'OK'),
      ];
    case 'flanneld':
    case 'local-path-provisioner':
      return [];
    case 'metrics-server':
      return [tls(10250)];
    case 'controller':
      return [metrics(7472)];
    case 'speaker':
      return [metrics(7472), tcp(7946, 'speaker', { kind: 'netcat' })];
    default:
      return undefined;
  }
}

function stopLogsOf(bin: string, ctx: ProcessContext): readonly LogText[] {
  return bin !== 'nginx' || ctx.boundPorts.has('TCP/80') ? [] : NGINX_STOP_LOGS;
}

/** nginx's shutdown lines (master pid 1, four workers): the same for every pod, so built once. */
const NGINX_STOP_LOGS: readonly LogText[] = (() => {
  const n =
    (text: string): LogText =>
    (ms) =>
      `${slashTime(ms)} [notice] ${text}`;
  const lines: LogText[] = [n('1#1: signal 3 (SIGQUIT) received, shutting down')];
  for (let pid = 29; pid < 33; pid++)
    lines.push(
      n(`${pid}#${pid}: gracefully shutting down`),
      n(`${pid}#${pid}: exiting`),
      n(`${pid}#${pid}: exit`),
    );
  for (let pid = 29; pid < 33; pid++)
    lines.push(
      n(`1#1: signal 17 (SIGCHLD) received from ${pid}`),
      n(`1#1: worker process ${pid} exited with code 0`),
    );
  lines.push(n('1#1: exit'));
  return lines;
})();
