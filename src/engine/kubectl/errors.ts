/**
 * How kubectl turns errors into text (`cmdutil.CheckErr`): API errors become
 * `Error from server (Reason): message`, Invalid errors with causes become
 * `The Kind "name" is invalid: field: message`, everything else gets an `error: ` prefix.
 */
import { kubectlInvalidText, StatusError } from '../api/errors.ts';

/** An error whose exact stderr text is known (no further prefixing). Exit code 1 unless given. */
export class KubectlError extends Error {
  readonly text: string;
  readonly exitCode: number;
  /** What the command printed to stdout before failing (a go-template's debugging dump). */
  readonly stdout: string;
  constructor(text: string, exitCode = 1, stdout = '') {
    super(text);
    this.name = 'KubectlError';
    this.text = text;
    this.exitCode = exitCode;
    this.stdout = stdout;
  }
}

/** A generic client-side error, printed as `error: <message>`. */
export function cmdError(message: string): KubectlError {
  return new KubectlError(message.startsWith('error: ') ? message : `error: ${message}`);
}

/** `cmdutil.UsageErrorf`: `error: <message>\nSee '<command path> -h' for help and examples`. */
export function usageError(commandPath: string, message: string): KubectlError {
  return new KubectlError(`error: ${message}\nSee '${commandPath} -h' for help and examples`);
}

/**
 * kubectl's `checkErr` text for one error (without the trailing newline). An Invalid API error is printed
 * from its details (`The <Kind> "<name>" is invalid: ` + causes), never from its message, so the
 * `error when creating "<file>"` that `AddSourceToErr` put in the message does not show.
 */
export function errorText(e: unknown): string {
  if (e instanceof KubectlError) return e.text;
  if (e instanceof StatusError) {
    if (e.reason === 'Invalid') return kubectlInvalidText(e) ?? 'The request is invalid';
    return statusErrorText(e);
  }
  const message = e instanceof Error ? e.message : String(e);
  return message.startsWith('error: ') ? message : `error: ${message}`;
}

/** `StandardErrorMessage` for API errors. */
export function statusErrorText(e: StatusError): string {
  return `Error from server (${e.reason}): ${e.message}`;
}

/** An error as one line of an aggregate (`MultipleErrors`): API errors keep their reason prefix. */
export function aggregateLine(e: unknown): string {
  if (e instanceof StatusError) return statusErrorText(e);
  if (e instanceof KubectlError) return e.text.replace(/^error: /, '');
  return e instanceof Error ? e.message : String(e);
}
