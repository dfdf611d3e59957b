/**
 * How each real shell words a syntax error. bash: the interactive forms (no `-c: line 1:` prefix);
 * an unterminated quote prints bash 5.1's two lines (Ubuntu 22.04, Debian 11), which is also what
 * `bash -c` prints. busybox ash and dash have their own shorter texts.
 */
import type { ShellSyntaxError } from './parser.ts';
import type { Frame } from './session.ts';

export function syntaxErrorText(e: ShellSyntaxError, frame: Pick<Frame, 'flavour'>): string {
  const p = e.problem;
  if (p.kind === 'unsupported') return `packetpath: the lab shell does not support ${p.what}\n`;
  if (p.kind === 'too-deep') return `packetpath: the line nests commands too deeply\n`;
  switch (frame.flavour) {
    case 'bash':
      switch (p.kind) {
        case 'eof-quote':
          return `bash: unexpected EOF while looking for matching \`${p.quote}'\nbash: syntax error: unexpected end of file\n`;
        case 'eof':
          return 'bash: syntax error: unexpected end of file\n';
        case 'token':
          return `bash: syntax error near unexpected token \`${p.token}'\n`;
        case 'identifier':
          return `bash: \`${p.name}': not a valid identifier\n`;
      }
    case 'ash':
      switch (p.kind) {
        case 'eof-quote':
          return 'sh: syntax error: unterminated quoted string\n';
        case 'eof':
          return 'sh: syntax error: unexpected end of file\n';
        case 'token':
          return p.token === 'newline'
            ? 'sh: syntax error: unexpected newline\n'
            : `sh: syntax error: unexpected "${p.token}"\n`;
        case 'identifier':
          return `sh: syntax error: bad for loop variable\n`;
      }
    case 'dash':
      switch (p.kind) {
        case 'eof-quote':
          return 'sh: 1: Syntax error: Unterminated quoted string\n';
        case 'eof':
          return 'sh: 1: Syntax error: end of file unexpected\n';
        case 'token':
          return p.token === 'newline'
            ? 'sh: 1: Syntax error: newline unexpected\n'
            : `sh: 1: Syntax error: "${p.token}" unexpected\n`;
        case 'identifier':
          return `sh: 1: Syntax error: Bad for loop variable\n`;
      }
  }
}
