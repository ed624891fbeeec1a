import type { Command } from 'commander';
import { Context } from '../context';

/**
 * A command's action with its context: the client is closed afterwards, and anything thrown
 * reaches main, which prints it and exits with its status.
 */
export function withContext<A extends unknown[]>(
  fn: (ctx: Context, ...args: A) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const ctx = Context.of(command);
    try {
      await fn(ctx, ...(args.slice(0, -1) as A));
    } finally {
      await ctx.close();
    }
  };
}

/** Collects a repeatable option's values. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `a,b` and repeated options alike. */
export const listOf = (values: string[] | undefined): string[] | undefined =>
  values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
