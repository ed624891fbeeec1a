/** Logs (other-resources.md §4): written by admins only, read through their object or owner. */
import { useDeployment } from '../harness/deployment';
import { answer, forbidden } from '../harness/answers';
import { objectsIn } from '../harness/objects';
import { makeUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const { project } = objectsIn(d);

describe('logs (other-resources.md §4)', () => {
  it('are written by admins only, and read through their object or their owner', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const mine = await project(u);
    const theirs = await project(v);
    const log = async (attrs: Record<string, unknown>) => {
      const res = await root().request('POST', '/svc/v1/logs', {
        json: { log: { event_type: 'test', ...attrs } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    };
    const aboutMine = await log({ object_uuid: mine });
    const aboutTheirs = await log({ object_uuid: theirs });
    const owned = await log({ object_uuid: theirs, owner_uuid: u.uuid });
    for (const [uuid, status] of [
      [aboutMine, 200],
      [aboutTheirs, 404],
      [owned, 200],
    ] as const) {
      const got = await u.client.request('GET', `/svc/v1/logs/${uuid}`);
      expect([uuid, got.status]).toEqual([uuid, status]);
    }
    const listed = await u.client.request('GET', '/svc/v1/logs', {
      query: { filters: [['uuid', 'in', [aboutMine, aboutTheirs, owned]]] },
    });
    expect(listed.body.items.map((l: { uuid: string }) => l.uuid).sort()).toEqual(
      [aboutMine, owned].sort(),
    );
    const create = await u.client.request('POST', '/svc/v1/logs', {
      json: { log: { event_type: 'x', object_uuid: mine } },
    });
    expect(answer(create)).toEqual(forbidden);
    const update = await u.client.request('PUT', `/svc/v1/logs/${aboutMine}`, {
      json: { log: { summary: 'x' } },
    });
    expect(answer(update)).toEqual(forbidden);
    expect(answer(await u.client.request('DELETE', `/svc/v1/logs/${owned}`))).toEqual(forbidden);
  });
});
