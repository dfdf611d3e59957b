/**
 * What a kubectl command line shows, read the way kubectl reads its arguments: the verb, the resource
 * types (comma lists, `type/name`, full names like `endpointslices.discovery.k8s.io`, short names) and the
 * namespace (`-n`, `--namespace=`, `-nshop`, `-A`), flags in any order, each command of a pipeline or
 * list (`kubectl get ep -n shop | grep api`, `a && b`). Observation checks use it to recognise that the
 * learner looked at something however they spelled it.
 */
import { resolveResource } from '../engine-api.ts';

/** kubectl flags that take a value as the next word (global and get/describe flags). */
const VALUE_FLAGS = new Set([
  '-n',
  '--namespace',
  '-l',
  '--selector',
  '-o',
  '--output',
  '-f',
  '--filename',
  '-c',
  '--container',
  '--context',
  '--cluster',
  '--user',
  '--kubeconfig',
  '-s',
  '--server',
  '--as',
  '--as-group',
  '--field-selector',
  '--sort-by',
  '--template',
  '-L',
  '--label-columns',
  '--chunk-size',
  '--request-timeout',
  '--subresource',
  '-k',
  '--kustomize',
  '--token',
  '--cache-dir',
]);

export interface KubectlShow {
  readonly verb: string;
  /** Resource keys (`endpointslices.discovery.k8s.io`), resolved as kubectl resolves the typed names. */
  readonly resources: readonly string[];
  /** The namespace asked for; `*` for `-A`; undefined for the default (the kubeconfig's, `default`). */
  readonly namespace: string | undefined;
}

/** The words of one shell line, split into commands at unquoted `|`, `;`, `&&`, `||`, `&` and newlines. */
export function commandsOf(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      const end = close < 0 ? line.length : close;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t') endWord();
    else if ('|;&\n'.includes(ch)) endCommand();
    else if (ch === '#' && !inWord) break;
    else {
      word += ch;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** The kubectl get/describe/… a command asks for, or undefined when it is not kubectl. */
export function kubectlShow(words: readonly string[]): KubectlShow | undefined {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++; // VAR=value prefixes
  if (i < words.length && ['sudo', 'command', 'time', 'watch'].includes(words[i]!)) i++;
  const program = words[i]?.split('/').pop();
  if (program !== 'kubectl' && program !== 'k') return undefined;
  let namespace: string | undefined;
  const positional: string[] = [];
  for (i++; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    if (w === '-A' || w === '--all-namespaces' || w === '--all-namespaces=true') namespace = '*';
    else if (w.startsWith('--namespace=')) namespace = w.slice('--namespace='.length);
    else if (w === '-n' || w === '--namespace') namespace = words[++i];
    else if (/^-n.+/.test(w)) namespace = w.slice(2).replace(/^=/, '');
    else if (VALUE_FLAGS.has(w)) i++;
    else if (!w.startsWith('-')) positional.push(w);
  }
  const [verb, ...args] = positional;
  if (verb === undefined) return undefined;
  const typed = args.length === 0 ? [] : args[0]!.includes('/') ? args : [args[0]!];
  const resources = typed
    .flatMap((a) => a.split('/')[0]!.split(','))
    .filter((t) => t !== '')
    .map((t) => resolveResource(t)?.key ?? t.toLowerCase());
  return { verb, resources, namespace };
}
