/**
 * `help`: what the lab shell offers, laid out like bash's own `help` (a header, then the commands).
 * The one-line usages are bash 5.1's where the builtin exists there.
 */

export const HELP_TOPICS: Readonly<Record<string, string>> = {
  ':': ': [arguments]',
  '.': '. filename [arguments]',
  '[': '[ arg... ]',
  alias: 'alias [-p] [name[=value] ... ]',
  break: 'break [n]',
  cd: 'cd [-L|[-P [-e]] [-@]] [dir]',
  command: 'command [-pVv] command [arg ...]',
  continue: 'continue [n]',
  echo: 'echo [-neE] [arg ...]',
  eval: 'eval [arg ...]',
  exit: 'exit [n]',
  export: 'export [-fn] [name[=value] ...] or export -p',
  false: 'false',
  help: 'help [-dms] [pattern ...]',
  history: 'history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]',
  jobs: 'jobs [-lnprs] [jobspec ...] or jobs -x command [args]',
  printf: 'printf [-v var] format [arguments]',
  pwd: 'pwd [-LP]',
  read: 'read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]',
  set: 'set [-abefhkmnptuvxBCHP] [-o option-name] [--] [arg ...]',
  shift: 'shift [n]',
  source: 'source filename [arguments]',
  test: 'test [expr]',
  true: 'true',
  type: 'type [-afptP] name [name ...]',
  unalias: 'unalias [-a] name [name ...]',
  unset: 'unset [-f] [-v] [-n] [name ...]',
  wait: 'wait [-fn] [-p var] [id ...]',
};

export function helpText(builtins: readonly string[], utilities: readonly string[]): string {
  const names = [...new Set(builtins)].sort();
  return [
    'Packet Path lab shell, a small bash-like shell (only what the labs need).',
    "These commands are defined internally.  Type `help name' to find out more about the command `name'.",
    '',
    'Cluster:',
    '  kubectl (alias k)        talk to the simulated cluster; `kubectl exec -it POD -- sh` opens a shell in a pod',
    '',
    'Shell builtins:',
    ...wrap(names.join(' ')),
    '',
    'Utilities:',
    ...wrap([...new Set(utilities)].sort().join(' ')),
    '',
    'Syntax: quotes \'…\' "…" \\x, $VAR ${VAR} ${VAR:-default} ${VAR#pattern}, $(command), $((1 + 2)),',
    '  pipes | and |&, lists ; && ||, redirections > >> < 2> 2>&1 &> <<< and here-documents <<EOF,',
    '  if/then/elif/else/fi, for NAME in …; do …; done, while/until …; do …; done, ( … ) and { …; }.',
    "Files live in the lab's directory (~); `exit` leaves a pod or node shell.",
    '',
  ].join('\n');
}

function wrap(text: string): string[] {
  const out: string[] = [];
  let line = ' ';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 100) {
      out.push(line);
      line = ' ';
    }
    line += ` ${word}`;
  }
  if (line.trim() !== '') out.push(line);
  return out;
}
