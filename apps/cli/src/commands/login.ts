import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { ApiError, SvcClient } from '@svc/client';
import { writeLogin } from '../config-file';
import type { Context } from '../context';
import { notLoggedIn, usageError } from '../exit-codes';
import { readInput } from '../input';
import { withContext } from './run';

/** Asks on the terminal; a hidden answer (a token) is not echoed. */
async function ask(question: string, hidden: boolean): Promise<string> {
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  process.stderr.write(question);
  const rl = createInterface({
    input: process.stdin,
    output: hidden ? muted : process.stderr,
    terminal: true,
  });
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    if (hidden) process.stderr.write('\n');
  }
}

/** From the flag, then the environment, then the terminal (or, for the token, piped input). */
async function loginInputs(ctx: Context, opts: { host?: string; token?: string }) {
  const tty = process.stdin.isTTY === true;
  const host = opts.host ?? ctx.env['SVC_API_HOST'] ?? (tty ? await ask('API host: ', false) : '');
  if (!host) throw usageError('no host: give --host, set SVC_API_HOST, or run on a terminal');
  let token = opts.token ?? ctx.env['SVC_API_TOKEN'];
  if (!token) token = tty ? await ask('API token: ', true) : (await readInput('-')).trim();
  if (!token) throw usageError('no token: give --token, set SVC_API_TOKEN, or type it');
  return { host, token };
}

/** `svc login`: checks the token with the server, then saves host and token (mode 0600). */
export function register(program: Command): void {
  program
    .command('login')
    .description('Save the API host and token for later commands (asks for what is not given)')
    .option('-t, --token <token>', 'API token (default: SVC_API_TOKEN, piped input, or asked)')
    .addHelpText(
      'after',
      `\nThe login is saved in $XDG_CONFIG_HOME/svc/config.json (~/.config/svc/config.json), readable by you only.\nExample:\n  svc login --host svc.example.org < token.txt`,
    )
    .action(
      withContext(async (ctx, opts: { token?: string }) => {
        const global = ctx.globalHost();
        const { host, token } = await loginInputs(ctx, {
          ...opts,
          ...(global ? { host: global } : {}),
        });
        const client = new SvcClient({ host, token });
        try {
          const me = await client.api.users.current();
          writeLogin(ctx.configPath, { host: client.baseUrl, token });
          ctx.out.note(
            `logged in to ${client.baseUrl} as ${me.email ?? me.username ?? me.uuid} (${me.uuid}); saved in ${ctx.configPath}`,
          );
        } catch (err) {
          if (err instanceof ApiError && err.status === 401) {
            throw notLoggedIn(`${client.baseUrl} refused the token (401 ${err.errors.join('; ')})`);
          }
          throw err;
        } finally {
          await client.close();
        }
      }),
    );
}
