/**
 * How runc finds the program of a container or an exec: Go's `exec.LookPath`. A name with a slash is
 * only stat'ed, so a missing `/bin/sh` says `stat /bin/sh: no such file or directory`; a bare name is
 * searched in `$PATH` and says `executable file not found in $PATH`. Both kubectl exec's error and the
 * container start error embed this text.
 */
export function lookPathError(name: string): string {
  const why = name.includes('/')
    ? `stat ${name}: no such file or directory`
    : 'executable file not found in $PATH';
  return `exec: "${name}": ${why}`;
}
