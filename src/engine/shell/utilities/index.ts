/**
 * The shell's own implementations of standard programs (coreutils, grep, sed, awk, findutils'
 * xargs). On the learner's host they are always there; in a pod or node the command registry
 * (`cluster/commands.ts`) offers them only when the container's image has them.
 */
import type { CommandHandler } from '../types.ts';
import { basename, cat, cp, dirname, ls, mkdir, mv, rm, rmdir, tee, touch } from './files.ts';
import { base64, cut, env, head, printenv, seq, sort, tail, tr, uniq, wc } from './text.ts';
import { grep } from './grep.ts';
import { sed } from './sed.ts';
import { awk } from './awk.ts';
import { xargs } from './xargs.ts';
import { stty, tput } from './terminal.ts';

export const TEXT_UTILITIES: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  ['awk', awk],
  ['base64', base64],
  ['basename', basename],
  ['cat', cat],
  ['cp', cp],
  ['cut', cut],
  ['dirname', dirname],
  ['egrep', (argv, io) => grep(['grep', '-E', ...argv.slice(1)], io)],
  ['env', env],
  ['fgrep', (argv, io) => grep(['grep', '-F', ...argv.slice(1)], io)],
  ['grep', grep],
  ['head', head],
  ['ls', ls],
  ['mkdir', mkdir],
  ['mv', mv],
  ['printenv', printenv],
  ['rm', rm],
  ['rmdir', rmdir],
  ['sed', sed],
  ['seq', seq],
  ['sort', sort],
  ['stty', stty],
  ['tail', tail],
  ['tee', tee],
  ['touch', touch],
  ['tput', tput],
  ['tr', tr],
  ['uniq', uniq],
  ['wc', wc],
  ['xargs', xargs],
]);
