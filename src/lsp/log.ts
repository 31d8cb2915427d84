// The server's log (window/logMessage, which the client shows in its own log) and its one-line messages to the
// person (window/showMessage). Every line goes through redactSecrets with the API key: the key never appears in
// any message or log, whatever an error message carries.
import type { Connection } from 'vscode-languageserver/node';
import { redactSecrets } from '../core/redact';

export class Log {
  constructor(
    private readonly connection: Connection,
    private readonly secrets: () => (string | undefined)[],
  ) {}

  private clean(line: string): string {
    return redactSecrets(
      line,
      this.secrets().filter((s): s is string => !!s),
    );
  }

  info(line: string): void {
    this.connection.console.info(this.clean(line));
  }

  warn(line: string): void {
    this.connection.console.warn(this.clean(line));
  }

  error(line: string): void {
    this.connection.console.error(this.clean(line));
  }

  /** A message the person sees (one line), and the same in the log. */
  show(kind: 'info' | 'warning' | 'error', line: string): void {
    const text = this.clean(line);
    if (kind === 'error') void this.connection.window.showErrorMessage(text);
    else if (kind === 'warning') void this.connection.window.showWarningMessage(text);
    else void this.connection.window.showInformationMessage(text);
    this[kind === 'warning' ? 'warn' : kind](text);
  }
}
