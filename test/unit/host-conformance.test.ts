/**
 * Every host gives the same output for the same lines: the Web Worker host (its message handler,
 * driven directly), the WebContainer host's bin scripts (the program bundled as the site bundles it,
 * the file tree written to disk, `node .packetpath/bin/kubectl …` spawned as jsh would), and the Node
 * CLI (`packetpath exec --state FILE -- LINE`). The lines are single kubectl commands, the part all
 * three share: in a WebContainer, pipes and redirections belong to jsh.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostHandler } from '../../src/runtime/host-handler.ts';
import { loadBundledLab, loadBundledLabSource } from '../../src/runtime/labs.ts';
import { PROTOCOL_VERSION, type ExecOutput, type FromHost, type ToHost } from '../../src/runtime/protocol.ts';
import { buildFileTree, type FileSystemTree } from '../../src/runtime/webcontainer/file-tree.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const LAB = '00-sandbox';

/** name → line. Order matters: later lines see what earlier ones did. */
const LINES: [string, string][] = [
  ['nodes', 'kubectl get nodes'],
  ['apply from the lab file', 'kubectl apply -f web.yaml'],
  ['deployment', 'kubectl get deployment web'],
  ['scale', 'kubectl scale deployment web --replicas=3'],
  ['pods with IPs', 'kubectl get pods -o wide'],
  ['expose', 'kubectl expose deployment web --port=80'],
  ['service as YAML', 'kubectl get service web -o yaml'],
  ['endpointslices', 'kubectl get endpointslices -l kubernetes.io/service-name=web'],
  ['unknown resource (stderr, exit 1)', 'kubectl get nosuchthing'],
  ['unknown flag', 'kubectl get pods --bogus'],
  [
    'jsonpath with spaces',
    'kubectl get pods -o jsonpath=\'{range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}\'',
  ],
];

type Out = Pick<ExecOutput, 'stdout' | 'stderr' | 'exitCode'>;

/** A POSIX-ish word splitter, enough for the table's lines (what jsh does before running a bin). */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === '\\' && '"\\$`'.includes(line[i + 1] ?? '')) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === ' ') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

function writeTree(dir: string, tree: FileSystemTree): void {
  for (const [name, node] of Object.entries(tree)) {
    const path = join(dir, name);
    if ('directory' in node) {
      mkdirSync(path, { recursive: true });
      writeTree(path, node.directory);
    } else writeFileSync(path, node.file.contents);
  }
}

let tmp: string;
let workerOut: Out[] = [];
let wcOut: Out[] = [];
let cliOut: Out[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pp-conformance-'));

  // Worker host.
  const sent: FromHost[] = [];
  const handler = createHostHandler({ host: 'worker', loadLab: loadBundledLab, send: (m) => sent.push(m) });
  let id = 0;
  const request = async (type: string, params: unknown) => {
    const myId = ++id;
    handler.receive({ v: PROTOCOL_VERSION, kind: 'request', id: myId, type, params } as ToHost);
    await handler.idle();
    const r = sent.find((m) => m.kind === 'response' && m.id === myId);
    if (!r || r.kind !== 'response' || !r.ok) throw new Error(`worker ${type} failed: ${JSON.stringify(r)}`);
    return r.value;
  };
  await request('load', { labId: LAB, start: { kind: 'fresh' } });
  for (const [, line] of LINES) {
    const r = (await request('exec', { line })) as ExecOutput;
    workerOut.push({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });
  }

  // WebContainer bin scripts, run by Node on the tree the host mounts.
  const outDir = join(tmp, 'program');
  await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      lib: {
        entry: join(root, 'src/runtime/webcontainer/program.ts'),
        formats: ['es'],
        fileName: () => 'program.mjs',
      },
    },
  });
  const wcDir = join(tmp, 'wc');
  mkdirSync(wcDir);
  const source = await loadBundledLabSource(LAB);
  writeTree(
    wcDir,
    buildFileTree({
      program: readFileSync(join(outDir, 'program.mjs'), 'utf8'),
      lab: source,
      files: source.start,
    }),
  );
  for (const [, line] of LINES) {
    const [tool, ...args] = words(line);
    const r = spawnSync(process.execPath, [join(wcDir, '.packetpath/bin', tool!), ...args], {
      cwd: wcDir,
      encoding: 'utf8',
    });
    wcOut.push({ stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 });
  }

  // Node CLI.
  const cliDir = join(tmp, 'cli');
  mkdirSync(cliDir);
  for (const [path, content] of Object.entries(source.start)) writeFileSync(join(cliDir, path), content);
  for (const [, line] of LINES) {
    const r = spawnSync(
      process.execPath,
      [join(root, 'bin/packetpath.mjs'), 'exec', '--state', 'state.json', '--', line],
      {
        cwd: cliDir,
        encoding: 'utf8',
      },
    );
    cliOut.push({ stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 });
  }
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(LINES.map(([name, line], i) => ({ name, line, i })))('$name: $line', ({ i }) => {
  it('the WebContainer bin scripts print what the worker host prints', () => {
    expect(wcOut[i]).toEqual(workerOut[i]);
  });

  it('the Node CLI prints what the worker host prints', () => {
    expect(cliOut[i]).toEqual(workerOut[i]);
  });
});

it('the WebContainer program kept its state and the journal between invocations', () => {
  const state = JSON.parse(readFileSync(join(tmp, 'wc/.packetpath/state.json'), 'utf8')) as {
    journal: { run?: string }[];
  };
  expect(state.journal.map((s) => s.run)).toEqual(
    LINES.map(([, l]) =>
      words(l)
        .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w}'`))
        .join(' '),
    ),
  );
  expect(execFileSync(process.execPath, ['-e', 'process.stdout.write("ok")'], { encoding: 'utf8' })).toBe(
    'ok',
  );
});
