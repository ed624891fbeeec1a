/**
 * Objects a test needs, made through the API of the file's deployment. Each helper fails the
 * test unless the server makes the object. Bind them once per file:
 *   const { project, grant } = objectsIn(d);
 */
import type { TestDeployment } from './deployment';
import type { TestUser } from './users';

type Deployed = { readonly current: TestDeployment };

/** Objects made by a given user, and permission links made by root, for permission tests. */
export function objectsIn(d: Deployed) {
  const root = () => d.current.root;
  return {
    async project(by: TestUser, attrs: Record<string, unknown> = {}) {
      const res = await by.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', ...attrs } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    },
    async role(by: TestUser) {
      const res = await by.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'role' } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    },
    async collection(by: TestUser, owner: string) {
      const res = await by.client.request('POST', '/svc/v1/collections', {
        json: { collection: { owner_uuid: owner } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    },
    async workflow(by: TestUser) {
      const res = await by.client.request('POST', '/svc/v1/workflows', {
        json: { workflow: { name: 'wf' } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    },
    /** A permission link, made by root (which manages everything). */
    async grant(tail: string, name: string, head: string) {
      const res = await root().request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } },
      });
      expect([res.status, res.body.errors]).toEqual([200, undefined]);
      return res.body.uuid as string;
    },
    /** 0 none, 1 read, 2 write, 3 manage — as the API reveals them. */
    async levelOn(u: TestUser, uuid: string, type: string): Promise<number> {
      const got = await u.client.request('GET', `/svc/v1/${type}/${uuid}`);
      if (got.status === 404) return 0;
      expect(got.status).toBe(200);
      if (type === 'groups' || type === 'users')
        return got.body.can_manage ? 3 : got.body.can_write ? 2 : 1;
      const write = await u.client.request('PUT', `/svc/v1/${type}/${uuid}`, { json: {} });
      return write.status === 200 ? 2 : 1;
    },
  };
}

/** Named objects made by root (or a given user), for request and list tests. */
export function rootObjectsIn(d: Deployed) {
  const root = () => d.current.root;
  return {
    async namedProject(name: string, by: TestUser | null = null): Promise<string> {
      const client = by ? by.client : root();
      const res = await client.request('POST', '/svc/v1/groups', {
        json: { group: { name, group_class: 'project' } },
      });
      expect([res.status, res.body.errors]).toEqual([200, undefined]);
      return res.body.uuid as string;
    },
    /** A project made by root with these attributes; the whole answer. */
    async newGroup(attrs: Record<string, unknown> = {}) {
      const res = await root().request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', ...attrs } },
      });
      expect(res.status).toBe(200);
      return res.body;
    },
    async create(type: string, singular: string, attrs: Record<string, unknown>) {
      const res = await root().request('POST', `/svc/v1/${type}`, { json: { [singular]: attrs } });
      expect([res.status, res.body.errors]).toEqual([200, undefined]);
      return res.body as Record<string, unknown> & { uuid: string };
    },
  };
}
