import type { Command } from 'commander';
import type { ListEndpointId } from '@svc/client';
import { endpointId, type ResourceSpec } from '@svc/contract';
import type { Context } from '../context';
import { usageError } from '../exit-codes';
import { parseFilter } from '../filter-syntax';
import { parsePairs } from '../input';
import { checkAttributes, defaultColumns, endpointFor, resolveType, typesWith } from '../resources';
import { collect, listOf, withContext } from './run';

interface ListOptions {
  filter?: string[];
  order?: string[];
  select?: string[];
  limit?: string;
  offset?: string;
  all?: boolean;
  param?: string[];
}

function count(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text)) throw usageError(`--${name} must be a whole number, not '${text}'`);
  return Number(text);
}

/** The list call's options from the command line; checked here where a mistake is certain. */
function listOptions(r: ResourceSpec, opts: ListOptions, columns: string[] | undefined) {
  const endpoint = endpointFor(r, 'list');
  const extra = parsePairs(opts.param ?? []);
  for (const name of Object.keys(extra)) {
    if (!(name in endpoint.params)) {
      const known = Object.keys(endpoint.params).join(', ');
      throw usageError(`unknown parameter '${name}' for listing ${r.type}; parameters: ${known}`);
    }
  }
  const filters = (opts.filter ?? []).flatMap((f) => parseFilter(f, r));
  const order = listOf(opts.order);
  const limit = count(opts.limit, 'limit');
  const offset = count(opts.offset, 'offset');
  return {
    id: endpointId(endpoint) as ListEndpointId,
    options: {
      ...extra,
      ...(filters.length > 0 ? { filters } : {}),
      ...(order ? { order } : {}),
      ...(columns ? { select: columns } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(offset !== undefined ? { offset } : {}),
    } as Record<string, unknown>,
  };
}

async function printAll(
  ctx: Context,
  r: ResourceSpec,
  id: ListEndpointId,
  options: Record<string, unknown>,
  columns: string[],
) {
  const rows: Record<string, unknown>[] = [];
  const onPage = ({ fetched, total }: { fetched: number; total: number | null }) =>
    ctx.out.progress(`${r.type}: ${fetched}${total === null ? '' : ` of ${total}`}`);
  for await (const item of ctx.client().listAll(id, options as never, { onPage })) rows.push(item);
  ctx.out.progress(null);
  ctx.out.rows(columns, rows);
}

async function listOnce(ctx: Context, r: ResourceSpec, opts: ListOptions) {
  const select = listOf(opts.select);
  if (select) checkAttributes(r, select, '--select');
  // People get a table of a few columns; scripts get whole objects unless they --select.
  const columns = select ?? (ctx.out.json ? undefined : defaultColumns(r));
  const { id, options } = listOptions(r, opts, columns);
  const shown = columns ?? [];
  if (opts.all) {
    if (options['offset'] !== undefined) throw usageError('--all and --offset do not go together');
    return printAll(ctx, r, id, options, shown);
  }
  const page = (await ctx.client().call(id, options)) as {
    items: Record<string, unknown>[];
    offset: number;
    items_available?: number;
  };
  ctx.out.rows(shown, page.items);
  const total = page.items_available;
  if (!ctx.out.json && total !== undefined && page.offset + page.items.length < total) {
    ctx.out.note(`${page.items.length} of ${total} shown; --all lists every one`);
  }
}

/** `svc list <type>`: one page, or every page with --all. */
export function register(program: Command): void {
  program
    .command('list')
    .description('List objects of a type, filtered and ordered')
    .argument('<type>', `one of: ${typesWith('list').join(', ')}`)
    .option(
      '-f, --filter <condition>',
      "'<attribute> <operator> <value>' or JSON (repeatable; all must hold)",
      collect,
    )
    .option(
      '-o, --order <attribute>',
      "sort key, e.g. 'name' or 'modified_at desc' (repeatable)",
      collect,
    )
    .option('-s, --select <attributes>', 'attributes to show, comma-separated', collect)
    .option('-l, --limit <n>', 'items per page (the server caps it)')
    .option('--offset <n>', 'items to skip')
    .option('-a, --all', 'every matching item, page after page')
    .option('-p, --param <name=value>', 'any other parameter of the list (repeatable)', collect)
    .addHelpText(
      'after',
      `
Examples:
  svc list collections --filter 'name like %genome%' --order 'modified_at desc'
  svc list groups -f 'group_class = project' -f 'properties.lab = east' --all --json
  svc list container_requests -f 'state in Committed,Final' -s uuid,state,name
  svc list links -f '["link_class","=","permission"]' -p include_trash=true`,
    )
    .action(
      withContext(async (ctx, type: string, opts: ListOptions) =>
        listOnce(ctx, resolveType(type, 'list'), opts),
      ),
    );
}
