import * as vscode from 'vscode';
import { redactSecrets } from '../../core/redact';

/** The "Promptwright" log channel. Every line passes through redaction of known secrets. */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private secrets = new Set<string>();

  constructor() {
    this.channel = vscode.window.createOutputChannel('Promptwright', { log: true });
  }
  /** Registers a secret that must never appear in the log. */
  addSecret(value: string | undefined): void {
    if (value) this.secrets.add(value);
  }
  /** The text without any secret the extension holds: for every output, not only the log (notifications). */
  redact(msg: string): string {
    return redactSecrets(msg, [...this.secrets]);
  }
  info(msg: string): void {
    this.channel.info(this.redact(msg));
  }
  warn(msg: string): void {
    this.channel.warn(this.redact(msg));
  }
  error(msg: string): void {
    this.channel.error(this.redact(msg));
  }
  debug(msg: string): void {
    this.channel.debug(this.redact(msg));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
