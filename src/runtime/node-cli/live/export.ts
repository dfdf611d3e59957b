/**
 * `packetpath export LAB DIR [--variant ID | --seed N] [--locale en|pt-BR] [--labs DIR]`: a lab to
 * take to a real cluster. DIR gets `kind.yaml` (the cluster), the lab's start files (its manifests,
 * at the paths the lab's lines name), `setup.sh` (the lab's setup lines, run with your kubectl),
 * `verify.sh` (the lab's checks, see verify-script.ts) and a README.md saying the order. The
 * solution is not exported: the learner is meant to find it.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labForLearner, type LoadedLab, type Locale } from '../../../grader/index.ts';
import { loadLabFromDir } from '../../../grader/node/load-lab.ts';
import { resolveLabDir } from '../grade.ts';
import type { CliIO } from '../grade-io.ts';
import { CNI_INSTALL, ExportError, kindConfigFor } from './kind-config.ts';
import { portableLine, verifyScript } from './verify-script.ts';

const USAGE = `usage: packetpath export LAB DIR [--variant ID | --seed N] [--locale en|pt-BR] [--labs DIR]

Writes DIR/kind.yaml, the lab's start files, DIR/setup.sh and DIR/verify.sh, to run the lab on a
real cluster (kind create cluster --config DIR/kind.yaml). DIR must be new or empty.
`;

/** The course's own labs, next to the CLI (used when LAB is neither a folder nor under ./labs). */
const PACKAGED_LABS = fileURLToPath(new URL('../../../../labs/', import.meta.url));

export interface LabArgs {
  readonly positional: string[];
  readonly variant?: string;
  readonly seed?: number;
  readonly locale: Locale;
  readonly labsDir?: string;
}

/** Parses LAB-taking flags shared by export and grade --kubeconfig; `extra` names more value flags. */
export function parseLabArgs(
  argv: readonly string[],
  extra: readonly string[] = [],
): (LabArgs & { readonly flags: Map<string, string> }) | string {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const known = ['--variant', '--seed', '--locale', '--labs', ...extra];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') return '';
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (!known.includes(flag)) return `unknown flag: ${flag}`;
    const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined || v === '') return `${flag} needs a value`;
    flags.set(flag, v);
  }
  const seedText = flags.get('--seed');
  if (seedText !== undefined && !/^\d{1,10}$/.test(seedText)) return '--seed must be a whole number';
  if (seedText !== undefined && flags.has('--variant'))
    return 'give --variant or --seed, not both: the seed draws the variant';
  const locale = flags.get('--locale') ?? 'en';
  if (locale !== 'en' && locale !== 'pt-BR') return '--locale must be en or pt-BR';
  const variant = flags.get('--variant');
  const labsDir = flags.get('--labs');
  return {
    positional,
    flags,
    locale,
    ...(variant !== undefined ? { variant } : {}),
    ...(seedText !== undefined ? { seed: Number(seedText) } : {}),
    ...(labsDir !== undefined ? { labsDir } : {}),
  };
}

/** The lab LAB names (a folder, ./labs/LAB, --labs DIR/LAB, or the course's own), one variant picked. */
export function loadLabFor(args: LabArgs, lab: string, cwd: string): LoadedLab {
  let dir = resolveLabDir(lab, cwd, args.labsDir);
  if (!existsSync(join(dir, 'lab.yaml')) && args.labsDir === undefined && /^[a-z0-9][-a-z0-9]*$/.test(lab))
    dir = join(PACKAGED_LABS, lab);
  const loaded = loadLabFromDir(dir);
  return labForLearner(loaded, {
    ...(args.variant !== undefined ? { variant: args.variant } : {}),
    seed: args.seed ?? 1,
  });
}

function setupScript(loaded: LoadedLab): string {
  const lines = loaded.lab.setup;
  const foreign = lines.find((l) => !portableLine(l));
  if (foreign !== undefined)
    throw new ExportError(`lab ${loaded.lab.id}: its setup line "${foreign}" runs only in the simulator`);
  return [
    '#!/usr/bin/env bash',
    `# Lab ${loaded.lab.id}: the lines the course runs before you start (on the cluster of your current context).`,
    'set -euo pipefail',
    'cd "$(dirname "$0")"',
    ...lines,
    '',
  ].join('\n');
}

function readme(loaded: LoadedLab, cni: keyof typeof CNI_INSTALL, locale: Locale): string {
  const { lab } = loaded;
  const title = `# ${lab.title[locale]} (Packet Path lab ${lab.id})\n\n${lab.summary[locale]}\n\n`;
  if (locale === 'pt-BR')
    return `${title}1. \`kind create cluster --config kind.yaml\`
2. Instale o CNI para o qual o laboratório foi escrito (${cni}). ${CNI_INSTALL[cni][locale]}
3. \`./setup.sh\` aplica os manifestos iniciais (os arquivos desta pasta) e espera por eles.
4. Faça o laboratório: os passos estão no curso.
5. \`./verify.sh\` roda as verificações do laboratório com o kubectl e imprime TAP; sai com 0 quando todas
   passam. \`packetpath grade --kubeconfig ~/.kube/config ${lab.id}\` corrige as mesmas verificações.

As verificações sobre a sua sessão no curso (perguntas, os comandos que você rodou) e as que só o simulador
observa aparecem como puladas (SKIP), com o motivo. Os endereços vão diferir dos do curso: a rede Docker do
kind e um CNI de verdade escolhem os próprios IPs de nós e pods.

Estes arquivos foram testados contra o \`packetpath serve\` (o cluster simulado atrás de uma API do
Kubernetes) com o kubectl v1.35 real; não havia um cluster kind de verdade onde foram escritos.
`;
  return `${title}1. \`kind create cluster --config kind.yaml\`
2. Install the CNI the lab was written for (${cni}). ${CNI_INSTALL[cni][locale]}
3. \`./setup.sh\` applies the lab's start manifests (the files here) and waits for them.
4. Do the lab: its steps are in the course.
5. \`./verify.sh\` runs the lab's checks with kubectl and prints TAP; it exits 0 when they all pass.
   \`packetpath grade --kubeconfig ~/.kube/config ${lab.id}\` grades the same checks.

Checks about your session in the course (questions, the commands you ran) and those only the
simulator can observe are reported as skipped, with the reason. Addresses differ from the course:
kind's Docker network and a real CNI pick their own node and pod IPs.

These files were tested against \`packetpath serve\` (the simulated cluster behind a Kubernetes API)
with the real kubectl v1.35; a real kind cluster was not available where they were written.
`;
}

function writeFiles(dir: string, files: Readonly<Record<string, string>>): string[] {
  for (const [path, text] of Object.entries(files)) {
    const to = resolve(dir, path);
    if (!to.startsWith(resolve(dir) + '/')) throw new ExportError(`a start file escapes DIR: ${path}`);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, text);
    if (path.endsWith('.sh')) chmodSync(to, 0o755);
  }
  return Object.keys(files).sort();
}

/** What verify.sh needs beside it: the lab's start files (output checks may read them) and itself. */
export function writeChecks(loaded: LoadedLab, dir: string, locale: Locale): string[] {
  return writeFiles(dir, { ...loaded.startFiles, 'verify.sh': verifyScript(loaded, locale) });
}

export function writeExport(loaded: LoadedLab, dir: string, locale: Locale): string[] {
  const kind = kindConfigFor(loaded.lab);
  const setup = setupScript(loaded);
  return [
    ...writeChecks(loaded, dir, locale),
    ...writeFiles(dir, {
      'kind.yaml': kind.yaml,
      'setup.sh': setup,
      'README.md': readme(loaded, kind.config.cni, locale),
    }),
  ].sort();
}

export function runExport(argv: readonly string[], io: CliIO): number {
  const args = parseLabArgs(argv);
  if (typeof args === 'string') {
    if (args) io.err(`packetpath export: ${args}\n`);
    io.err(USAGE);
    return args ? 2 : 0;
  }
  if (args.positional.length !== 2) {
    io.err(`packetpath export: give a lab and a folder\n${USAGE}`);
    return 2;
  }
  const [lab, out] = args.positional as [string, string];
  const dir = resolve(io.cwd, out);
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
    io.err(`packetpath export: ${out} exists and is not an empty folder\n`);
    return 1;
  }
  try {
    const loaded = loadLabFor(args, lab, io.cwd);
    // Checked before the first file is written: a lab that cannot go to kind leaves no DIR.
    kindConfigFor(loaded.lab);
    setupScript(loaded);
    const written = writeExport(loaded, dir, args.locale);
    io.out(`Wrote ${written.length} files to ${out}: ${written.join(', ')}\n`);
    io.out(`Next: kind create cluster --config ${join(out, 'kind.yaml')}; see ${join(out, 'README.md')}\n`);
    return 0;
  } catch (e) {
    io.err(`packetpath export: ${(e as Error).message.split('\n').join('\npacketpath export: ')}\n`);
    return e instanceof ExportError ? 1 : 2;
  }
}
