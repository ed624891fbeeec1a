import type { Command } from 'commander';
import { ENDPOINTS, endpointById, endpointId, type Endpoint } from '@svc/contract';
import type { Context } from '../context';
import { usageError } from '../exit-codes';
import { parsePairs, readAttributes } from '../input';
import { collect, withContext } from './run';

/** Every operation of the API table, for `svc call` without arguments. */
function listOperations(ctx: Context): void {
  const rows = ENDPOINTS.map((e) => ({
    operation: `${e.resource}.${e.name}`,
    method: e.httpMethod,
    path: `/svc/v1/${e.path}`,
    parameters: Object.keys(e.params).join(' '),
  }));
  ctx.out.rows(['operation', 'method', 'path', 'parameters'], rows);
}

function endpointNamed(name: string): Endpoint {
  const e = endpointById(name.startsWith('svc.') ? name : `svc.${name}`);
  if (!e) throw usageError(`unknown operation '${name}'; \`svc call\` lists them`);
  return e;
}

async function callOptions(
  e: Endpoint,
  uuid: string | undefined,
  opts: { param?: string[]; file?: string },
) {
  const options = parsePairs(opts.param ?? []);
  const body = e.requestSchema ? Object.keys((e.requestSchema['properties'] ?? {}) as object) : [];
  for (const name of Object.keys(options)) {
    if (!(name in e.params) && !body.includes(name)) {
      throw usageError(
        `unknown parameter '${name}' for ${e.resource}.${e.name}; parameters: ${[...Object.keys(e.params), ...body].join(', ')}`,
      );
    }
  }
  if (uuid !== undefined) {
    if (!('uuid' in e.params)) throw usageError(`${e.resource}.${e.name} takes no uuid`);
    options['uuid'] = uuid;
  }
  if (opts.file) {
    if (e.attributesOf)
      options['attributes'] = await readAttributes(opts.file, e.attributesOf.singular);
    else Object.assign(options, await readAttributes(opts.file, ''));
  }
  return options;
}

/** `svc call <operation> [uuid]`: any operation of the API, as the table describes it. */
export function register(program: Command): void {
  program
    .command('call')
    .description('Call any operation of the API by name (without arguments: list them)')
    .argument('[operation]', "e.g. 'groups.trash', 'containers.lock', 'users.system'")
    .argument('[uuid]', 'object uuid, for operations on one object')
    .option(
      '-p, --param <name=value>',
      'a parameter; values are JSON where they parse (repeatable)',
      collect,
    )
    .option(
      '-f, --file <file>',
      'JSON attributes (create, update) or body fields; - reads standard input',
    )
    .addHelpText(
      'after',
      `\nExamples:\n  svc call groups.trash home1-j7d0g-0123456789abcde\n  svc call groups.contents -p uuid=home1-j7d0g-0123456789abcde -p limit=5`,
    )
    .action(
      withContext(
        async (
          ctx,
          name: string | undefined,
          uuid: string | undefined,
          opts: { param?: string[]; file?: string },
        ) => {
          if (name === undefined) return listOperations(ctx);
          const e = endpointNamed(name);
          const result = (await ctx
            .client()
            .call(endpointId(e), await callOptions(e, uuid, opts))) as Record<string, unknown>;
          const items = result['items'];
          if (Array.isArray(items) && !ctx.out.json) {
            const first = (items[0] ?? {}) as Record<string, unknown>;
            ctx.out.rows(Object.keys(first).slice(0, 6), items as Record<string, unknown>[]);
          } else {
            ctx.out.object(result);
          }
        },
      ),
    );
}
