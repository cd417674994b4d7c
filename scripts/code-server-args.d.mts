export interface CodeServerServeOptions {
  readonly codeServerBin: string;
  /** Where its own config.yaml lives. */
  readonly configDir: string;
  readonly port: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly workspace: string;
}
export function codeServerServeArgs(options: CodeServerServeOptions): string[];
