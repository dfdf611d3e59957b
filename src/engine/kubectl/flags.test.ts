import { describe, expect, it } from 'vitest';
import { flagsFor, FlagError, parseFlags, parseGoDuration } from './flags.ts';

function parse(path: string, argv: string[]) {
  return parseFlags(argv, flagsFor(path));
}

function error(path: string, argv: string[]): string {
  try {
    parse(path, argv);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
  }
  return '<no error>';
}

describe('pflag-style parsing', () => {
  it.each([
    { name: '--flag=value', argv: ['pods', '--namespace=kube-system'], ns: 'kube-system', args: ['pods'] },
    { name: '--flag value', argv: ['--namespace', 'kube-system', 'pods'], ns: 'kube-system', args: ['pods'] },
    { name: '-n value', argv: ['pods', '-n', 'team-a'], ns: 'team-a', args: ['pods'] },
    { name: '-nvalue', argv: ['-nteam-a', 'pods'], ns: 'team-a', args: ['pods'] },
    { name: '-n=value', argv: ['-n=team-a', 'pods'], ns: 'team-a', args: ['pods'] },
    {
      name: 'flags among args',
      argv: ['pods', '-o', 'wide', 'web', '-n', 'x'],
      ns: 'x',
      args: ['pods', 'web'],
    },
    { name: 'lone dash is an argument', argv: ['-'], ns: '', args: ['-'] },
  ])('$name', ({ argv, ns, args }) => {
    const f = parse('get', argv);
    expect(f.string('namespace')).toBe(ns);
    expect(f.args).toEqual(args);
  });

  it('combines short booleans (-it) and keeps everything after -- as arguments', () => {
    const f = parse('exec', ['web', '-it', '--', 'sh', '-c', 'ls -l']);
    expect(f.bool('stdin')).toBe(true);
    expect(f.bool('tty')).toBe(true);
    expect(f.args).toEqual(['web', 'sh', '-c', 'ls -l']);
    expect(f.argsLenAtDash).toBe(1);
  });

  it('reads types and defaults from the real help text', () => {
    const f = parse('logs', ['web']);
    expect(f.int('tail')).toBe(-1);
    expect(f.duration('pod-running-timeout')).toBe(20_000);
    expect(f.bool('timestamps')).toBe(false);
    expect(parse('port-forward', []).array('address')).toEqual(['localhost']);
  });

  it('gives --dry-run, --validate and --cascade their NoOptDefVal', () => {
    expect(parse('apply', ['--dry-run', '-f', 'x.yaml']).string('dry-run')).toBe('unchanged');
    expect(parse('apply', ['--validate', '-f', 'x.yaml']).string('validate')).toBe('strict');
    expect(parse('delete', ['--cascade', 'pods', 'x']).string('cascade')).toBe('background');
  });

  it('appends repeated array flags and splits StringSlice values on commas', () => {
    const f = parse('create deployment', ['web', '--image=a,b', '--image', 'c']);
    expect(f.array('image')).toEqual(['a', 'b', 'c']);
    expect(parse('run', ['x', '--env=A=1,B=2']).array('env')).toEqual(['A=1,B=2']);
  });

  it('recognises -h and --help on every command', () => {
    expect(parse('get', ['-h']).help).toBe(true);
    expect(parse('scale', ['--help']).help).toBe(true);
  });

  // Wording from pflag (checked against kubectl v1.33 in testdata/client-goldens.json).
  it.each([
    { name: 'unknown long flag', path: 'get', argv: ['--foo'], msg: 'unknown flag: --foo' },
    { name: 'unknown shorthand', path: 'get', argv: ['-x'], msg: "unknown shorthand flag: 'x' in -x" },
    {
      name: 'unknown shorthand in a group',
      path: 'get',
      argv: ['-Ax'],
      msg: "unknown shorthand flag: 'x' in -x",
    },
    {
      name: 'missing value (long)',
      path: 'get',
      argv: ['--namespace'],
      msg: 'flag needs an argument: --namespace',
    },
    { name: 'missing value (short)', path: 'get', argv: ['-n'], msg: "flag needs an argument: 'n' in -n" },
    {
      name: 'bad bool',
      path: 'get',
      argv: ['-A=x'],
      msg: 'invalid argument "x" for "-A, --all-namespaces" flag: strconv.ParseBool: parsing "x": invalid syntax',
    },
    {
      name: 'bad int',
      path: 'scale',
      argv: ['--replicas=x'],
      msg: 'invalid argument "x" for "--replicas" flag: strconv.ParseInt: parsing "x": invalid syntax',
    },
    {
      name: 'bad duration',
      path: 'wait',
      argv: ['--timeout=soon'],
      msg: 'invalid argument "soon" for "--timeout" flag: time: invalid duration "soon"',
    },
  ])('$name', ({ path, argv, msg }) => {
    expect(error(path, argv)).toBe(msg);
  });
});

describe('Go durations', () => {
  it.each([
    ['0', 0],
    ['30s', 30_000],
    ['1m0s', 60_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['250ms', 250],
  ])('%s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', '5', 'x', '1d'])('rejects %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
