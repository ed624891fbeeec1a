/**
 * groups.md §7 with API.UnfreezeProjectRequiresAdmin, API.FreezeProjectRequiresDescription and
 * API.FreezeProjectRequiresProperties set.
 */
import { useDeployment } from '../harness/deployment';
import { makeProject } from '../harness/groups';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment({
  configure: (_id, section) => {
    section['API'] = {
      ...(section['API'] ?? {}),
      UnfreezeProjectRequiresAdmin: true,
      FreezeProjectRequiresDescription: true,
      FreezeProjectRequiresProperties: ['ticket'],
    };
  },
});

const freeze = (u: TestUser, uuid: string, attrs: Record<string, unknown>) =>
  u.client.request('PUT', `/svc/v1/groups/${uuid}`, { json: { group: attrs } });

describe('freezing with required description and properties', () => {
  let M: TestUser, P: string;
  beforeAll(async () => {
    M = await makeUser(d.current);
    P = (await makeProject(M.client)).uuid;
  });

  it('needs a non-blank description', async () => {
    for (const description of [undefined, '', '   ']) {
      const attrs = {
        frozen_by_uuid: M.uuid,
        ...(description === undefined ? {} : { description }),
      };
      const res = await freeze(M, P, attrs);
      expect([description, res.status, res.body.errors]).toEqual([
        description,
        422,
        ['frozen_by_uuid can only be set if description is non-empty'],
      ]);
    }
  });

  it('needs each required property non-empty', async () => {
    for (const ticket of [undefined, null, '', [], {}]) {
      const properties = ticket === undefined ? {} : { ticket };
      const res = await freeze(M, P, { frozen_by_uuid: M.uuid, description: 'd', properties });
      expect([ticket, res.status, res.body.errors]).toEqual([
        ticket,
        422,
        ['frozen_by_uuid can only be set if properties[ticket] value is non-empty'],
      ]);
    }
  });

  it('checks the values after the update: one update sets them and freezes', async () => {
    const res = await freeze(M, P, {
      frozen_by_uuid: M.uuid,
      description: 'final',
      properties: { ticket: 'T-1' },
    });
    expect([res.status, res.body.frozen_by_uuid]).toEqual([200, M.uuid]);
  });

  it('only an admin unfreezes', async () => {
    const res = await freeze(M, P, { frozen_by_uuid: null });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['frozen_by_uuid can only be changed by an admin user, once set'],
    ]);
    const A = await makeUser(d.current, { is_admin: true });
    const ok = await freeze(A, P, { frozen_by_uuid: null });
    expect([ok.status, ok.body.frozen_by_uuid]).toEqual([200, null]);
  });
});
