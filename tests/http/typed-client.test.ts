import { ApiError } from '@svc/client';
import { useDeployment } from '../harness/deployment';
import { makeUser } from '../harness/users';

/** The public client speaks the same typed interface the server's layers implement. */
const d = useDeployment();

describe('the typed client (SvcApi over HTTP)', () => {
  it('creates, reads, lists, updates and deletes through typed calls', async () => {
    const api = d.current.root.api;
    const project = await api.groups.create({
      attributes: { name: `typed ${Date.now()}`, group_class: 'project' },
      select: ['uuid', 'name', 'group_class'],
    });
    expect(project).toEqual({
      kind: 'svc#group',
      uuid: expect.any(String),
      name: expect.stringMatching(/^typed /),
      group_class: 'project',
    });
    const got = await api.groups.get({ uuid: project.uuid });
    expect(got.can_manage).toBe(true);
    const listed = await api.groups.list({
      filters: [['uuid', '=', project.uuid]],
      select: ['uuid'],
      count: 'none',
    });
    expect(listed.items).toEqual([{ kind: 'svc#group', uuid: project.uuid }]);
    expect(listed).not.toHaveProperty('items_available');
    const renamed = await api.groups.update({
      uuid: project.uuid,
      attributes: { name: 'renamed' },
    });
    expect(renamed.name).toBe('renamed');
    const trashed = await api.groups.delete({ uuid: project.uuid });
    expect(trashed.is_trashed).toBe(true);
    const config = await api.configs.get();
    expect(config.ClusterID).toBe('home1');
  });

  it('throws an ApiError carrying the status, messages, error token and request id', async () => {
    const user = await makeUser(d.current);
    const err = await user.client.api.groups.get({ uuid: 'home1-j7d0g-zzzzzzzzzzzzzzz' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect([e.status, e.errors]).toEqual([404, ['Object not found']]);
    expect(e.errorToken).toMatch(/^\d+\+[0-9a-f]{8}$/);
    expect(e.requestId).toMatch(/^req-[0-9a-z]{20}$/);
    // A misspelled attribute does not compile; untyped, the server answers 422.
    const bad = await user.client.call('svc.links.list', { filters: [['nope', '=', 1]] }).then(
      () => null,
      (x: unknown) => x as ApiError,
    );
    expect(bad?.status).toBe(422);
  });
});
