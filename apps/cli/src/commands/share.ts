import type { Command } from 'commander';
import { Option } from 'commander';
import { resourceOfUuid } from '@svc/contract';
import { usageError } from '../exit-codes';
import { resourceOfId } from '../resources';
import { withContext } from './run';

const LEVELS = { read: 'can_read', write: 'can_write', manage: 'can_manage' } as const;
type Level = keyof typeof LEVELS;

/**
 * `svc share <uuid> --with <user|role> --level read|write|manage`: the permission link from
 * the user or role to the object (permissions.md §3), changed in place if one exists.
 */
export function register(program: Command): void {
  program
    .command('share')
    .description('Give a user or role read, write or manage permission on an object')
    .argument('<uuid>', 'object to share')
    .requiredOption('-w, --with <uuid>', 'user or role (group) uuid to share with')
    .addOption(
      new Option('-l, --level <level>', 'permission level')
        .choices(Object.keys(LEVELS))
        .default('read'),
    )
    .action(
      withContext(async (ctx, uuid: string, opts: { with: string; level: Level }) => {
        resourceOfId(uuid);
        const type = resourceOfUuid(opts.with)?.type;
        if (type !== 'users' && type !== 'groups') {
          throw usageError(`--with '${opts.with}' is not a user or group uuid`);
        }
        const links = ctx.client().api.links;
        const existing = await links.list({
          filters: [
            ['link_class', '=', 'permission'],
            ['head_uuid', '=', uuid],
            ['tail_uuid', '=', opts.with],
          ],
          limit: 1,
        });
        const name = LEVELS[opts.level];
        const link = existing.items[0]
          ? await links.update({ uuid: existing.items[0].uuid, attributes: { name } })
          : await links.create({
              attributes: { link_class: 'permission', name, head_uuid: uuid, tail_uuid: opts.with },
            });
        if (ctx.out.json) ctx.out.object(link);
        else ctx.out.line(`${opts.with} ${name} ${uuid} (link ${link.uuid})`);
      }),
    );
}
