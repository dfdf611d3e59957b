/**
 * A lab's checks as a bash script that asks a live cluster through kubectl (`verify.sh` of
 * `packetpath export`, and what `packetpath grade --kubeconfig` runs). Each check kind becomes the
 * kubectl a person would type to see the same thing: a field with `-o jsonpath`, endpoints from the
 * Service's EndpointSlices, reachability and DNS with curl and nslookup run in the client pod through
 * `kubectl exec`. Checks about the learner's session (quiz, history, looked) and those whose
 * observation only the simulator can make (the whole NetworkPolicy connection matrix, DNS query
 * counts, `trace`) are reported as skipped with the reason, never as passed.
 *
 * The script prints TAP (testanything.org): `ok N - ID: TITLE`, `not ok N - ID: TITLE` followed by
 * `#` lines saying what was expected and seen, `ok N - ID: TITLE # SKIP why`; it exits 0 when every
 * check that ran passed, 1 when one failed, 2 when kubectl is missing.
 */
import type { Check, CheckOf } from '../../../grader/check-schema.ts';
import { parseProbeTarget } from '../../../grader/probe-target.ts';
import { checkTitle, type LoadedLab, type Locale } from '../../../grader/index.ts';

/** A word in single quotes, as bash reads it back unchanged. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Where a check that cannot run on a live cluster says why. */
type Plan = { readonly run: string; readonly note?: string } | { readonly skip: string };

const SESSION_SKIP = "about the learner's session in the course, not the cluster's state";

/** The programs an output check's command may use to run unchanged outside the simulator. */
const PORTABLE_WORDS = new Set([
  'kubectl',
  'curl',
  'grep',
  'sort',
  'uniq',
  'seq',
  'cat',
  'echo',
  'printf',
  'head',
  'tail',
  'wc',
  'awk',
  'sed',
  'tr',
  'cut',
  'test',
  '[',
  'sleep',
  'true',
  'false',
  'for',
  'do',
  'done',
  'in',
  'if',
  'then',
  'else',
  'fi',
  'while',
]);

/** The first word of every simple command in a line (after `;`, `|`, `&&`, `||`, `$(`, `do`, `then`). */
function commandWords(line: string): string[] {
  const words: string[] = [];
  // Quoted text holds no commands (a jsonpath's `|` or `;` is data).
  const bare = line.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\$]|\\.)*"/g, '""');
  for (const part of bare.split(/\$\(|`|;|\|\||&&|\||\bdo\b|\bthen\b|\belse\b|\n/)) {
    const word = part
      .trim()
      .replace(/^[({]\s*/, '')
      .split(/\s+/)
      .find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (word) words.push(word.replace(/^\(+|\)+$/g, ''));
  }
  return words.filter((w) => w !== '');
}

/** The first program in a line that exists only in the simulator's shell, or undefined. */
function foreignWord(line: string): string | undefined {
  return commandWords(line).find((w) => !PORTABLE_WORDS.has(w));
}

/** A line runs unchanged in bash with a real kubectl. */
export function portableLine(line: string): boolean {
  return foreignWord(line) === undefined;
}

function outputPlan(check: CheckOf<'output'>): Plan {
  if (/\s-it?\b|\s--stdin\b|\s--tty\b/.test(check.command))
    return { skip: 'needs an interactive terminal (a node shell through kubectl debug -it)' };
  const foreign = foreignWord(check.command);
  if (foreign !== undefined) return { skip: `runs \`${foreign}\`, which only the simulator's shell has` };
  const args = [
    shellQuote(check.command),
    shellQuote(check.contains ?? ''),
    shellQuote(check.matches ?? ''),
    shellQuote(check.exitCode === undefined ? '' : String(check.exitCode)),
  ];
  return { run: `check_output ${args.join(' ')}` };
}

/** The kubectl `-n` words for a namespaced check, or none for a cluster-scoped type. */
function nsArgs(namespace: string | undefined): string {
  return `-n ${shellQuote(namespace ?? 'default')}`;
}

function resourcePlan(check: CheckOf<'resource'>): Plan {
  const sel = check.selector === undefined ? "''" : shellQuote(check.selector);
  if (check.name !== undefined)
    return {
      run: `check_resource_named ${shellQuote(check.resource)} ${shellQuote(check.namespace ?? 'default')} ${shellQuote(check.name)} ${sel} ${check.exists ? 1 : 0}`,
    };
  const min = check.count?.min ?? (check.count ? 0 : check.exists ? 1 : 0);
  const max = check.count?.max ?? (check.count ? '' : check.exists ? '' : 0);
  return {
    run: `check_resource_count ${shellQuote(check.resource)} ${shellQuote(check.namespace ?? 'default')} ${sel} ${min} ${shellQuote(String(max))}`,
  };
}

function fieldPlan(check: CheckOf<'field'>): Plan {
  const path = check.path.trim().startsWith('{') ? check.path.trim() : `{${check.path.trim()}}`;
  const equals =
    check.equals === undefined
      ? ''
      : typeof check.equals === 'string'
        ? check.equals
        : JSON.stringify(check.equals);
  return {
    run: [
      'check_field',
      shellQuote(check.resource),
      nsArgs(check.namespace),
      shellQuote(check.name),
      shellQuote(path),
      check.equals === undefined ? '0' : '1',
      shellQuote(equals),
      shellQuote(check.matches ?? ''),
    ].join(' '),
  };
}

function endpointsPlan(check: CheckOf<'endpoints'>): Plan {
  return {
    run: [
      'check_endpoints',
      shellQuote(check.namespace),
      shellQuote(check.service),
      String(check.minReady),
      shellQuote(check.maxReady === undefined ? '' : String(check.maxReady)),
      shellQuote(check.exactly ?? ''),
    ].join(' '),
  };
}

function podArgs(from: CheckOf<'reachability'>['from']): string {
  return `${shellQuote(from.namespace)} ${shellQuote(from.pod ?? '')} ${shellQuote(from.selector ?? '')}`;
}

function reachabilityPlan(check: CheckOf<'reachability'>): Plan {
  const target = parseProbeTarget(check.to, check.port, check.protocol);
  if ('error' in target) return { skip: `invalid target: ${target.error}` };
  if (target.protocol === 'UDP')
    return { skip: 'UDP: a dropped datagram and one nobody answers look the same from a client' };
  const url = target.url
    ? `${target.url.scheme}://${target.host}:${target.port}${target.url.path}`
    : `http://${target.host}:${target.port}/`;
  return { run: `check_reach ${podArgs(check.from)} ${shellQuote(url)} ${check.expect}` };
}

function dnsPlan(check: CheckOf<'dns'>): Plan {
  return {
    run: [
      'check_dns',
      podArgs(check.from),
      shellQuote(check.name),
      check.expect.resolves ? '1' : '0',
      shellQuote((check.expect.answers ?? []).join(' ')),
    ].join(' '),
    ...(check.expect.maxQueries === undefined
      ? {}
      : { note: `at most ${check.expect.maxQueries} queries: only the simulator counts them` }),
  };
}

export function planFor(check: Check): Plan {
  switch (check.type) {
    case 'resource':
      return resourcePlan(check);
    case 'field':
      return fieldPlan(check);
    case 'endpoints':
      return endpointsPlan(check);
    case 'reachability':
      return reachabilityPlan(check);
    case 'dns':
      return dnsPlan(check);
    case 'output':
      return outputPlan(check);
    case 'quiz':
    case 'history':
    case 'looked':
      return { skip: SESSION_SKIP };
    case 'connections':
      return {
        skip: 'grades every pod pair and port NetworkPolicy allows, which only the simulator can enumerate',
      };
    case 'weights':
      return { skip: "a route's traffic split is graded in the course (no kubectl line shows it)" };
    case 'predicate':
      return { skip: 'a TypeScript rule of the course, run by its grader only' };
  }
}

/** The bash the generated checks call. Kept in one place so every check kind reads the same. */
const HELPERS = String.raw`KUBECTL=${'$'}{KUBECTL:-kubectl}
if ! command -v "$KUBECTL" >/dev/null 2>&1; then
  echo "verify.sh: $KUBECTL not found (install kubectl, or set KUBECTL)" >&2
  exit 2
fi
if ! out=$("$KUBECTL" get --raw /version 2>&1); then
  echo "verify.sh: cannot reach the cluster: $out" >&2
  exit 2
fi
n=0
failed=0
why=()
k() { "$KUBECTL" "$@"; }
say() { why+=("$1"); }
# JavaScript-style regular expression test (Perl's is the closest): ^ and $ match at line ends.
matches() { PAT="$2" perl -0777 -ne 'exit(($_ =~ /$ENV{PAT}/m) ? 0 : 1)' <<<"$1"; }
report() { # STATUS(0 pass) LABEL
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
  if [ "$1" -ne 0 ]; then for line in "${'$'}{why[@]}"; do echo "#   $line"; done; fi
  why=()
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

check_resource_named() { # TYPE NS NAME SELECTOR EXISTS
  local sel=() out
  [ -n "$4" ] && sel=(-l "$4")
  out=$(k get "$1" -n "$2" "${'$'}{sel[@]}" -o name 2>&1) || { say "kubectl: $out"; return 1; }
  if grep -q "/$3\$" <<<"$out"; then
    [ "$5" = 1 ] && return 0
    say "expected no $1 $2/$3, found it"
  else
    [ "$5" = 0 ] && return 0
    say "expected $1 $2/$3, not found"
  fi
  return 1
}

check_resource_count() { # TYPE NS SELECTOR MIN MAX
  local sel=() out count
  [ -n "$3" ] && sel=(-l "$3")
  out=$(k get "$1" -n "$2" "${'$'}{sel[@]}" -o name 2>&1) || { say "kubectl: $out"; return 1; }
  count=$(grep -c . <<<"$out")
  if [ "$count" -ge "$4" ] && { [ -z "$5" ] || [ "$count" -le "$5" ]; }; then return 0; fi
  say "expected ${'$'}{4} to ${'$'}{5:-any} $1${'$'}{3:+ matching $3}, found $count"
  return 1
}

check_field() { # TYPE -n NS NAME JSONPATH HAS_EQUALS EQUALS PATTERN
  local out
  out=$(k get "$1" "$2" "$3" "$4" -o "jsonpath=$5" 2>&1) || { say "kubectl: $out"; return 1; }
  if [ "$6" = 1 ] && [ "$out" != "$7" ]; then say "expected $5 = $7, got: ${'$'}{out:-<empty>}"; return 1; fi
  if [ -n "$8" ] && ! matches "$out" "$8"; then say "expected $5 to match /$8/, got: ${'$'}{out:-<empty>}"; return 1; fi
  return 0
}

# The first Running pod (by name) a selector picks, else the first one; a pod given by name as is.
pick_pod() { # NS POD SELECTOR
  if [ -n "$2" ]; then echo "$2"; return; fi
  local pods
  pods=$(k get pods -n "$1" -l "$3" -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.phase}{"\n"}{end}' | sort)
  awk '$2 == "Running" { print $1; found = 1; exit } END { if (!found) exit 1 }' <<<"$pods" ||
    awk 'NF { print $1; exit }' <<<"$pods"
}

client_pod() { # NS POD SELECTOR: prints the pod, or says why there is none
  local pod phase
  pod=$(pick_pod "$@")
  if [ -z "$pod" ]; then say "no pod matches $3 in namespace $1"; return 1; fi
  phase=$(k get pod -n "$1" "$pod" -o 'jsonpath={.status.phase}' 2>&1) || { say "kubectl: $phase"; return 1; }
  if [ "$phase" != Running ]; then say "pod $1/$pod is $phase, not Running"; return 1; fi
  echo "$pod"
}

check_endpoints() { # NS SERVICE MIN MAX EXACTLY
  local out ready count slices want
  out=$(k get service -n "$1" "$2" -o name 2>&1) || { say "kubectl: $out"; return 1; }
  # An endpoint whose ready condition is unset counts as ready (discovery/v1).
  out=$(k get endpointslices -n "$1" -l "kubernetes.io/service-name=$2" \
    -o jsonpath='{range .items[*]}{range .endpoints[*]}{.addresses[0]}{" "}{.conditions.ready}{"\n"}{end}{end}' 2>&1) ||
    { say "kubectl: $out"; return 1; }
  ready=$(awk 'NF && $2 != "false" { print $1 }' <<<"$out" | sort -u)
  count=$(grep -c . <<<"$ready")
  if [ -n "$5" ]; then
    slices=$(k get endpointslices -n "$1" -l "kubernetes.io/service-name=$2,endpointslice.kubernetes.io/managed-by!=endpointslice-controller.k8s.io" -o name)
    if [ -n "$slices" ]; then say "EndpointSlices no controller wrote: $slices"; return 1; fi
    want=$(k get pods -n "$1" -l "$5" -o jsonpath='{range .items[?(@.status.podIP)]}{.status.podIP}{" "}{range .status.conditions[?(@.type=="Ready")]}{.status}{end}{"\n"}{end}' |
      awk '$2 == "True" { print $1 }' | sort -u)
    if [ "$ready" = "$want" ]; then return 0; fi
    say "expected the ready endpoints of $1/$2 to be the pods $5 selects: $(echo ${'$'}{want:--})"
    say "ready endpoints: $(echo ${'$'}{ready:--})"
    return 1
  fi
  if [ "$count" -ge "$3" ] && { [ -z "$4" ] || [ "$count" -le "$4" ]; }; then return 0; fi
  say "expected ${'$'}{3} to ${'$'}{4:-any} ready endpoints for $1/$2, found $count: $(echo ${'$'}{ready:--})"
  return 1
}

check_reach() { # NS POD SELECTOR URL EXPECT(allowed|blocked|refused)
  local pod err connect rc seen
  pod=$(client_pod "$1" "$2" "$3") || return 1
  err=$(mktemp)
  connect=$(k exec -n "$1" "$pod" -- curl -sS -o /dev/null --connect-timeout 5 -m 5 -w '%{time_connect}' "$4" 2>"$err")
  rc=$?
  case $rc in
    0 | 8 | 52 | 56) seen=allowed ;;
    7) seen=refused ;;
    28) if awk -v t="${'$'}{connect:-0}" 'BEGIN { exit !(t + 0 > 0) }'; then seen=allowed; else seen=blocked; fi ;;
    6) seen="unresolved (curl could not resolve the name)" ;;
    *) seen="not probed: $(tr '\n' ' ' <"$err")" ;;
  esac
  rm -f "$err"
  [ "$seen" = "$5" ] && return 0
  say "expected $4 from $1/$pod: $5; seen: $seen (curl exit $rc)"
  return 1
}

check_dns() { # NS POD SELECTOR NAME RESOLVES ANSWERS
  local pod out rc got a
  pod=$(client_pod "$1" "$2" "$3") || return 1
  # getent asks the C library's resolver, as a program in the pod would (search list, ndots).
  out=$(k exec -n "$1" "$pod" -- getent hosts "$4" 2>&1)
  rc=$?
  got=$([ $rc -eq 0 ] && awk '{ print $1 }' <<<"$out")
  if grep -q 'executable file not found' <<<"$out"; then
    out=$(k exec -n "$1" "$pod" -- nslookup "$4" 2>&1)
    rc=$?
    if grep -q 'executable file not found' <<<"$out"; then say "the pod $1/$pod has neither getent nor nslookup"; return 1; fi
    # nslookup prints the server first ("Server:", "Address: 10.96.0.10#53"), then the answers.
    got=$(awk '/^Name:/ { answers = 1 } answers && /^Address/ { sub(/^Address( [0-9]+)?:[ \t]*/, ""); print }' <<<"$out")
  fi
  if [ "$5" = 0 ]; then
    [ -z "$got" ] && return 0
    say "expected $4 not to resolve from $1/$pod; it resolved to $(echo $got)"
    return 1
  fi
  if [ -z "$got" ]; then say "expected $4 to resolve from $1/$pod: $(tail -n 2 <<<"$out" | tr '\n' ' ')"; return 1; fi
  for a in $6; do
    grep -qx "$a" <<<"$got" || { say "expected $4 to answer $a, got $(echo $got)"; return 1; }
  done
  return 0
}

check_output() { # COMMAND CONTAINS PATTERN EXITCODE
  local out rc
  out=$(bash -c "$1" 2>/dev/null)
  rc=$?
  if [ -n "$4" ] && [ "$rc" != "$4" ]; then say "expected exit code $4, got $rc"; return 1; fi
  if [ -n "$2" ] && [[ "$out" != *"$2"* ]]; then say "expected the output to contain: $2"; say "got: $(head -c 300 <<<"$out")"; return 1; fi
  if [ -n "$3" ] && ! matches "$out" "$3"; then say "expected the output to match /$3/"; say "got: $(head -c 300 <<<"$out")"; return 1; fi
  return 0
}
`;

/** One check's TAP label: its id, then the title the course shows (a hidden check keeps its secret). */
function label(check: Check, locale: Locale): string {
  return `${check.id}: ${checkTitle(check, locale).replace(/\s+/g, ' ').trim()}`;
}

/** verify.sh for a lab (a variant's plain lab when it has variants): helpers, then one block per check. */
export function verifyScript(loaded: LoadedLab, locale: Locale): string {
  const { lab } = loaded;
  const lines = [
    '#!/usr/bin/env bash',
    `# Packet Path lab ${lab.id} (version ${lab.version})${loaded.variant ? `, variant ${loaded.variant.id}` : ''}: the lab's checks,`,
    '# run with kubectl against the cluster of your current context (or $KUBECONFIG).',
    '# Written by `packetpath export`; `packetpath grade --kubeconfig FILE LAB` runs the same checks.',
    '# Prints TAP: "ok N - ID: TITLE" or "not ok N - ID: TITLE" and why; exits 0 when every check passed.',
    'set -u',
    'cd "$(dirname "$0")"',
    HELPERS,
    `echo "1..${lab.checks.length}"`,
  ];
  for (const check of lab.checks) {
    const plan = planFor(check);
    const name = shellQuote(label(check, locale));
    if ('skip' in plan) lines.push(`skip ${name} ${shellQuote(plan.skip)}`);
    else lines.push(`${plan.run}; report $? ${name}`);
    if ('note' in plan && plan.note) lines.push(`echo ${shellQuote(`# not checked here: ${plan.note}`)}`);
  }
  lines.push('exit $failed', '');
  return lines.join('\n');
}
