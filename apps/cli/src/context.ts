import type { Command } from 'commander';
import { SvcClient } from '@svc/client';
import { configPath, readLogin } from './config-file';
import { notLoggedIn } from './exit-codes';
import { Output } from './output';

/** Options every command takes (`svc --help`). */
export interface GlobalOptions {
  host?: string;
  json?: boolean;
}

/** What a command runs with: where to print, and a client made on first use. */
export class Context {
  readonly out: Output;
  private made: SvcClient | null = null;

  constructor(
    private readonly global: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.out = new Output(process.stdout, process.stderr, global.json === true);
  }

  static of(command: Command): Context {
    return new Context(command.optsWithGlobals<GlobalOptions>());
  }

  /** --host, if given. */
  globalHost(): string | undefined {
    return this.global.host;
  }

  get configPath(): string {
    return configPath(this.env);
  }

  /** Host and token: --host, then SVC_API_HOST / SVC_API_TOKEN, then the saved login. */
  credentials(): { host: string | null; token: string | null } {
    const host = this.global.host ?? this.env['SVC_API_HOST'];
    const token = this.env['SVC_API_TOKEN'];
    // The saved login is read only when it is needed: a flag or the environment wins.
    const saved = host && token ? null : readLogin(this.configPath);
    return { host: host ?? saved?.host ?? null, token: token ?? saved?.token ?? null };
  }

  /** The typed client; exits "not logged in" without a host and a token. */
  client(): SvcClient {
    if (this.made) return this.made;
    const { host, token } = this.credentials();
    if (!host || !token) {
      throw notLoggedIn('not logged in: run `svc login`, or set SVC_API_HOST and SVC_API_TOKEN');
    }
    this.made = new SvcClient({ host, token });
    return this.made;
  }

  async close(): Promise<void> {
    await this.made?.close();
  }
}
