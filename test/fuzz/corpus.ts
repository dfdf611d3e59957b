/**
 * The seed material the fuzzers mutate: what learners really type and edit. Every command of every
 * lab (setup, solution, and the `sh`/`bash` code blocks and inline `kubectl …` of steps and hints),
 * the shell lines of the chapters' code blocks, every lab's start and solution files, the Corefiles the
 * engine ships, every lab.yaml, and honest grade reports. Read from disk once per test file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { listLabDirs, loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { resolveVariant, type LoadedLab } from '../../src/grader/index.ts';
import { createCluster } from '../../src/engine/index.ts';

export const ROOT = join(import.meta.dirname, '../..');
const LABS = join(ROOT, 'labs');
const CONTENT = join(ROOT, 'content');

export interface LabCorpus {
  readonly dir: string;
  readonly id: string;
  readonly loaded: LoadedLab;
  readonly yamlText: string;
  /** Shell lines: setup, solution, and every command shown in steps and hints. */
  readonly commands: readonly string[];
  /** Start and solution files, keyed by path. */
  readonly files: Readonly<Record<string, string>>;
}

/** Lines of ```sh / ```bash blocks (comments dropped) and `$ `-prompted lines of ```console blocks. */
export function codeBlockCommands(markdown: string): string[] {
  const out: string[] = [];
  const re = /```(sh|bash|shell|console)[^\n]*\n([\s\S]*?)```/g;
  for (const m of markdown.matchAll(re)) {
    const lang = m[1];
    for (const raw of (m[2] ?? '').split('\n')) {
      const line = raw.trim();
      if (lang === 'console') {
        if (line.startsWith('$ ')) out.push(line.slice(2));
      } else if (line && !line.startsWith('#')) out.push(line);
    }
  }
  for (const m of markdown.matchAll(/`((?:kubectl|curl|nslookup|dig|ip|iptables|cat) [^`\n]+)`/g)) {
    if (m[1]) out.push(m[1]);
  }
  return out;
}

function texts(v: unknown, acc: string[] = []): string[] {
  if (typeof v === 'string') acc.push(v);
  else if (Array.isArray(v)) for (const x of v) texts(x, acc);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) texts(x, acc);
  return acc;
}

let labsCache: LabCorpus[] | undefined;

export function labs(): LabCorpus[] {
  if (labsCache) return labsCache;
  labsCache = listLabDirs(LABS).flatMap((dir) => {
    const yamlText = readFileSync(join(dir, 'lab.yaml'), 'utf8');
    const base = loadLabFromDir(dir);
    const raw = parse(yamlText) as Record<string, unknown>;
    const shown = texts([raw.steps, raw.hints]).flatMap(codeBlockCommands);
    // A lab with variants (the capstone) has no start state of its own: each variant is a lab.
    const variants = base.lab.variants?.map((v) => ({
      id: `${base.lab.id}/${v.id}`,
      loaded: resolveVariant(base, v.id),
    }));
    return (variants ?? [{ id: base.lab.id, loaded: base }]).map(({ id, loaded }) => {
      const commands = [
        ...loaded.lab.setup,
        ...(loaded.lab.solution?.commands ?? []),
        ...texts(loaded.lab.hints).flatMap(codeBlockCommands),
        ...shown,
      ];
      const files: Record<string, string> = {};
      for (const [p, t] of Object.entries(loaded.startFiles)) files[`start/${p}`] = t;
      for (const [p, t] of Object.entries(loaded.solutionFiles)) files[`solution/${p}`] = t;
      return { dir, id, loaded, yamlText, commands: [...new Set(commands)], files };
    });
  });
  return labsCache;
}

function walk(dir: string, acc: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, acc);
    else if (/\.mdx?$/.test(e)) acc.push(p);
  }
  return acc;
}

/** Shell lines from the chapters' code blocks, both locales. */
export function chapterCommands(): string[] {
  return [...new Set(walk(CONTENT).flatMap((f) => codeBlockCommands(readFileSync(f, 'utf8'))))];
}

/** The Corefiles the engine ships, as a booted cluster's `coredns` ConfigMap holds them: kubeadm's and k3s's. */
export function corefiles(): string[] {
  return [
    undefined,
    'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
  ].map((config) => {
    const cm = createCluster(config).view().get('configmaps', 'kube-system', 'coredns');
    const corefile = cm?.data?.Corefile;
    if (corefile === undefined) throw new Error('the cluster installed no coredns Corefile');
    return corefile;
  });
}

/** Every YAML manifest file of every lab (start and solution). */
export function manifests(): { lab: string; path: string; text: string }[] {
  return labs().flatMap((l) =>
    Object.entries(l.files)
      .filter(([p]) => /\.ya?ml$/.test(p))
      .map(([path, text]) => ({ lab: l.id, path, text })),
  );
}
