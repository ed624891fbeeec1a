import { SHAPES, federatedUser, useFederation } from '../harness/federation';

/**
 * trash and untrash by uuid go to the uuid's cluster (federation.md §2), for groups and
 * collections, in both deployment shapes.
 */
describe.each(SHAPES)('trash and untrash on another cluster (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02']);

  it.each(['groups', 'collections'] as const)(
    '%s: a user of home1 trashes and untrashes what they made on rmt02',
    async (type) => {
      const alice = await federatedUser(f.current, 'home1');
      const client = alice.at('home1');
      const body = type === 'groups' ? { group: { group_class: 'project' } } : { collection: {} };
      const made = await client.request('POST', `/svc/v1/${type}`, {
        query: { cluster_id: 'rmt02' },
        json: body,
      });
      const uuid = made.body.uuid as string;
      expect(uuid.startsWith('rmt02-')).toBe(true);
      const trashed = await client.request('POST', `/svc/v1/${type}/${uuid}/trash`);
      expect([trashed.status, trashed.body.is_trashed]).toEqual([200, true]);
      expect((await client.request('GET', `/svc/v1/${type}/${uuid}`)).status).toBe(404);
      const back = await client.request('POST', `/svc/v1/${type}/${uuid}/untrash`);
      expect([back.status, back.body.uuid, back.body.is_trashed]).toEqual([200, uuid, false]);
      const again = await client.request('POST', `/svc/v1/${type}/${uuid}/untrash`);
      expect([again.status, again.body.errors]).toEqual([
        422,
        ['Item is not trashed, cannot untrash'],
      ]);
    },
  );
});
