/**
 * The "Cairn" LogOutputChannel. Every line passes through `redact` first: the API key is never written,
 * whatever a server or an error message echoes back.
 */
import type * as vscode from 'vscode';
import { redactSecret } from '../core/model/errors';
import type { HostLog } from './sessionController';

export class OutputLog implements HostLog {
  private readonly secrets = new Set<string>();

  constructor(private readonly channel: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>) {}

  /** A value that must never appear in the log (the key, once it is known). */
  hide(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  redact(line: string): string {
    let out = line;
    for (const secret of this.secrets) out = redactSecret(out, secret);
    return out;
  }

  info(line: string): void {
    this.channel.info(this.redact(line));
  }

  warn(line: string): void {
    this.channel.warn(this.redact(line));
  }

  error(line: string): void {
    this.channel.error(this.redact(line));
  }
}
