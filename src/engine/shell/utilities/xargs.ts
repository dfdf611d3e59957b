/**
 * GNU xargs: builds command lines from stdin items (blank-separated, quotes and backslashes honoured;
 * with -I, one item per line) and runs them through the shell (`io.run`). -n N, -I R, -r, -0, -d, -t.
 * Exit status: 123 if any run failed, 127 if the command was not found (as findutils documents).
 */
import { outputOf, Transcript, type CommandHandler } from '../types.ts';
import { parseOptions, result, withUsage } from './common.ts';

function splitItems(text: string): string[] | string {
  const items: string[] = [];
  let cur = '';
  let have = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0)
        return `xargs: unmatched ${c === "'" ? 'single' : 'double'} quote; by default quotes are special to xargs unless you use the -0 option\n`;
      cur += text.slice(i + 1, end);
      have = true;
      i = end;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      have = true;
    } else if (/\s/.test(c)) {
      if (have) items.push(cur);
      cur = '';
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) items.push(cur);
  return items;
}

export const xargs: CommandHandler = (argv, io) =>
  withUsage('xargs', '[OPTION]... COMMAND [INITIAL-ARGS]...', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'rt0p',
      values: 'nIdLP',
      long: {
        'no-run-if-empty': 'r',
        verbose: 't',
        null: '0',
        'max-args=': 'n',
        'replace=': 'I',
        'delimiter=': 'd',
      },
      stopAtOperand: true,
    });
    if (!io.run) return result('', 'xargs: cannot run commands here\n', 1);
    const command = operands.length > 0 ? operands : ['echo'];
    const input = io.stdin;
    const replace = opts.get('I')?.[0];
    const delim = opts.has('0') ? '\0' : opts.get('d')?.[0];
    let items: string[];
    if (replace !== undefined)
      items = input
        .split('\n')
        .map((l) => l.replace(/^[ \t]+/, ''))
        .filter((l) => l !== '');
    else if (delim !== undefined)
      items = input.split(delim.replace('\\n', '\n')).filter((x, i, a) => x !== '' || i < a.length - 1);
    else {
      const split = splitItems(input);
      if (typeof split === 'string') return result('', split, 1);
      items = split;
    }
    const perRun = replace !== undefined ? 1 : Number(opts.get('n')?.[0] ?? opts.get('L')?.[0] ?? Infinity);
    if (!Number.isFinite(perRun) && opts.has('n'))
      return result('', `xargs: invalid number "${opts.get('n')![0]}" for -n option\n`, 1);
    const batches: string[][] = [];
    for (let i = 0; i < items.length; i += perRun === Infinity ? Math.max(items.length, 1) : perRun)
      batches.push(items.slice(i, i + perRun));
    if (batches.length === 0 && !opts.has('r') && replace === undefined) batches.push([]);
    // `-t` echoes each command line on stderr just before that command's own output.
    const log = new Transcript();
    const done = (exitCode: number) => ({ ...log.streams(), exitCode });
    let code = 0;
    for (const batch of batches) {
      const args =
        replace !== undefined
          ? command.map((a) => a.split(replace).join(batch[0] ?? ''))
          : [...command, ...batch];
      if (opts.has('t')) log.write('stderr', `${args.join(' ')}\n`);
      const r = io.run(args, '');
      if (r.exitCode === 127 && /not found\n$/.test(r.stderr)) {
        log.write('stdout', r.stdout);
        log.write('stderr', `xargs: ${args[0]}: No such file or directory\n`);
        return done(127);
      }
      for (const chunk of outputOf(r)) log.write(chunk.stream, chunk.text);
      if (r.exitCode === 127) return done(127);
      if (r.exitCode === 255) {
        log.write('stderr', `xargs: ${args[0]}: exited with status 255; aborting\n`);
        return done(124);
      }
      if (r.exitCode !== 0) code = 123;
    }
    return done(code);
  });
