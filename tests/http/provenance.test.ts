/**
 * Provenance and use of collections, container status and priority repair (docs/api/more-resources.md
 * §8, §9).
 */
import { committedRequest, createRequest, getRequest, makeCollection } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { answer } from '../harness/answers';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
let u: TestUser;
let dispatcher: TestDispatcher;
beforeAll(async () => {
  u = await makeUser(d.current);
  dispatcher = await TestDispatcher.start(d.current);
});

const graph = (kind: 'provenance' | 'used_by', id: string, client = u.client) =>
  client.request('GET', `/svc/v1/collections/${id}/${kind}`);

describe('provenance and used_by (§8)', () => {
  it('walk from the output back to inputs and image, and from an input forward to the output', async () => {
    const input = await makeCollection(u.client, { name: 'input' });
    const image = await makeCollection(u.client, { name: 'image' });
    const cr = await createRequest(
      u.client,
      committedRequest(image.pdh, {
        mounts: {
          '/out': { kind: 'tmp', capacity: 1000000 },
          '/in': { kind: 'collection', portable_data_hash: input.pdh },
        },
      }),
    );
    const container = await dispatcher.complete(cr.container_uuid);
    const request = await getRequest(d.current, cr.uuid);
    const output = request.output_uuid as string;
    expect(output).toMatch(/-4zz18-/);
    const up = await graph('provenance', output);
    expect(up.status).toBe(200);
    expect(Object.keys(up.body)).toEqual(
      expect.arrayContaining([output, cr.uuid, input.pdh, image.pdh]),
    );
    expect(up.body[cr.uuid]).toMatchObject({ kind: 'svc#containerRequest', uuid: cr.uuid });
    expect(up.body[input.pdh]).toMatchObject({ kind: 'svc#collection', uuid: input.uuid });
    expect(typeof up.body[output].manifest_text).toBe('string');
    const down = await graph('used_by', input.uuid);
    expect(Object.keys(down.body).sort()).toEqual(
      expect.arrayContaining([input.pdh, container.uuid, container.output]),
    );
    expect(down.body[container.uuid]).toMatchObject({ kind: 'svc#container' });
    // A PDH in the path works too; hints are ignored.
    const byPdh = await graph('used_by', `${input.pdh}+Zhint`);
    expect(Object.keys(byPdh.body).sort()).toEqual(Object.keys(down.body).sort());
  });

  it('follow provenance links, summarise several collections of one PDH, and hide what the caller cannot read', async () => {
    const a = await makeCollection(u.client, { name: 'alpha' });
    const copy = await u.client.request('POST', '/svc/v1/collections', {
      json: {
        collection: {
          name: 'beta',
          manifest_text: (await u.client.request('GET', `/svc/v1/collections/${a.uuid}`)).body
            .manifest_text,
        },
      },
    });
    expect(copy.body.portable_data_hash).toBe(a.pdh);
    const b = await makeCollection(u.client, { name: 'derived' });
    const link = await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'provenance', name: 'made from', tail_uuid: a.uuid, head_uuid: b.uuid },
      },
    });
    const up = await graph('provenance', b.uuid);
    expect(up.body[link.body.uuid]).toMatchObject({ kind: 'svc#link', link_class: 'provenance' });
    expect(up.body[a.uuid]).toMatchObject({ uuid: a.uuid });
    const several = await graph('used_by', a.uuid);
    const first = [a.uuid, copy.body.uuid].sort()[0];
    const firstName = first === a.uuid ? 'alpha' : 'beta';
    expect(several.body[a.pdh]).toEqual({
      portable_data_hash: a.pdh,
      name: `${firstName} + 1 more`,
    });
    const stranger = await makeUser(d.current);
    expect(answer(await graph('provenance', b.uuid, stranger.client))).toEqual([
      404,
      ['Object not found'],
    ]);
    await u.client.request('POST', `/svc/v1/collections/${b.uuid}/trash`);
    expect((await graph('provenance', b.uuid)).status).toBe(404);
  });
});

describe('container_status and update_priority (§9)', () => {
  it('say where a request is in its container life', async () => {
    const image = await makeCollection(u.client, { name: 'status image' });
    const status = async (uuid: string) =>
      (await u.client.request('GET', `/svc/v1/container_requests/${uuid}/container_status`)).body;
    const draft = await createRequest(
      u.client,
      committedRequest(image.pdh, { state: 'Uncommitted', priority: 0 }),
    );
    expect(await status(draft.uuid)).toEqual({
      kind: 'svc#containerStatus',
      uuid: '',
      container_state: '',
      scheduling_status: 'No container is assigned.',
    });
    const cr = await createRequest(u.client, committedRequest(image.pdh, { command: ['status'] }));
    expect(await status(cr.uuid)).toEqual({
      kind: 'svc#containerStatus',
      uuid: cr.container_uuid,
      container_state: 'Queued',
      scheduling_status: 'Waiting in queue.',
    });
    await dispatcher.lock(cr.container_uuid);
    expect((await status(cr.uuid)).container_state).toBe('Locked');
    await dispatcher.update(cr.container_uuid, { state: 'Running' });
    expect(await status(cr.uuid)).toMatchObject({
      container_state: 'Running',
      scheduling_status: '',
    });
    const stranger = await makeUser(d.current);
    const hidden = await stranger.client.request(
      'GET',
      `/svc/v1/container_requests/${cr.uuid}/container_status`,
    );
    expect(answer(hidden)).toEqual([404, ['Object not found']]);
  });

  it('update_priority repairs the priority of a container the caller can read', async () => {
    const image = await makeCollection(u.client, { name: 'priority image' });
    const cr = await createRequest(u.client, committedRequest(image.pdh, { command: ['prio'] }));
    const uuid = cr.container_uuid as string;
    const db = d.current.running.cores[0]!.db;
    const before = (await d.current.root.request('GET', `/svc/v1/containers/${uuid}`)).body
      .priority;
    await db.query({ text: 'UPDATE containers SET priority = 7 WHERE uuid = $1', values: [uuid] });
    const res = await u.client.request('POST', `/svc/v1/containers/${uuid}/update_priority`);
    expect([res.status, res.body.uuid, res.body.priority]).toEqual([200, uuid, before]);
    const stranger = await makeUser(d.current);
    const refused = await stranger.client.request(
      'POST',
      `/svc/v1/containers/${uuid}/update_priority`,
    );
    expect(answer(refused)).toEqual([404, ['Object not found']]);
  });
});
