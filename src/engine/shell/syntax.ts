/**
 * The shell's syntax tree, shaped after the POSIX shell grammar (XCU 2.10): a program is a list of
 * and-or lists of pipelines of commands. Words keep their parts (literal text, `$VAR`, `$(…)`,
 * `$((…))`) with a `quoted` flag, because quoting decides field splitting and pathname expansion.
 */

export type ParamOp =
  | ':-'
  | '-'
  | ':='
  | '='
  | ':+'
  | '+'
  | ':?'
  | '?'
  | '#'
  | '##'
  | '%'
  | '%%'
  | '/'
  | '//';

export type WordPart =
  | { readonly type: 'text'; readonly value: string; readonly quoted: boolean }
  /** `~` or `~/…` at the start of an unquoted word. */
  | { readonly type: 'tilde' }
  | {
      readonly type: 'param';
      readonly name: string;
      readonly quoted: boolean;
      /** `${#NAME}` */
      readonly length?: boolean;
      readonly op?: ParamOp;
      readonly arg?: Word;
      /** The replacement of `${NAME/pattern/replacement}`. */
      readonly arg2?: Word;
    }
  /** `${…}` the shell cannot parse: bash reports `bad substitution` when it is expanded. */
  | { readonly type: 'bad'; readonly text: string }
  | { readonly type: 'command'; readonly body: List; readonly quoted: boolean }
  | { readonly type: 'arith'; readonly expr: Word; readonly quoted: boolean };

export interface Word {
  readonly parts: readonly WordPart[];
  /** The word as typed (for aliases, reserved words and messages). */
  readonly raw: string;
}

export type RedirOp = '<' | '>' | '>>' | '>|' | '<>' | '>&' | '<&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export interface HereDoc {
  readonly delimiter: string;
  readonly expand: boolean;
  readonly stripTabs: boolean;
  /** Filled in when the parser reaches the end of the line that opened the here-document. */
  body: Word | undefined;
}

export interface Redirect {
  /** The fd written before the operator (`2>`); undefined means the operator's default. */
  readonly fd: number | undefined;
  readonly op: RedirOp;
  readonly target: Word;
  readonly heredoc?: HereDoc;
}

export interface Assignment {
  readonly name: string;
  readonly value: Word;
  readonly append: boolean;
}

export interface SimpleCommand {
  readonly type: 'simple';
  readonly assigns: readonly Assignment[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
}

export interface GroupCommand {
  readonly type: 'group';
  /** `( … )` runs in a subshell; `{ …; }` in the current shell. */
  readonly subshell: boolean;
  readonly body: List;
  readonly redirects: readonly Redirect[];
}

export interface IfCommand {
  readonly type: 'if';
  readonly clauses: readonly { readonly cond: List; readonly body: List }[];
  readonly otherwise: List | undefined;
  readonly redirects: readonly Redirect[];
}

export interface ForCommand {
  readonly type: 'for';
  readonly name: string;
  readonly items: readonly Word[];
  readonly body: List;
  readonly redirects: readonly Redirect[];
}

export interface WhileCommand {
  readonly type: 'while';
  readonly until: boolean;
  readonly cond: List;
  readonly body: List;
  readonly redirects: readonly Redirect[];
}

export type Command = SimpleCommand | GroupCommand | IfCommand | ForCommand | WhileCommand;

export interface Pipeline {
  readonly negate: boolean;
  readonly commands: readonly Command[];
  /** `|&` after command i: its stderr goes down the pipe too. */
  readonly pipeStderr: readonly boolean[];
}

export interface AndOr {
  readonly first: Pipeline;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly pipeline: Pipeline }[];
  /** Ended with `&`. */
  readonly background: boolean;
}

export type List = readonly AndOr[];

export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  '{',
  '}',
  '!',
]);
