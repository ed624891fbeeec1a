/** A valid create body and a change for each resource type, for table-driven tests. */
export interface Sample {
  type: string;
  create: Record<string, unknown>;
  change: Record<string, unknown>;
  /** Delete trashes instead of removing. */
  trashes?: boolean;
}

export const MANIFEST = '. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:foo.txt\n';

export function samples(clusterId: string): Sample[] {
  const system = `${clusterId}-tpzed-000000000000000`;
  return [
    {
      type: 'users',
      create: { email: 'u@example.com', first_name: 'Ada' },
      change: { last_name: 'L' },
    },
    {
      type: 'groups',
      create: { name: 'A project', group_class: 'project' },
      change: { description: 'd' },
      trashes: true,
    },
    {
      type: 'collections',
      create: { name: 'c', manifest_text: MANIFEST },
      change: { properties: { a: 1 } },
      trashes: true,
    },
    {
      type: 'container_requests',
      create: {
        command: ['echo'],
        container_image: 'img',
        cwd: '/',
        output_path: '/out',
        mounts: { '/out': { kind: 'tmp' } },
      },
      change: { name: 'renamed' },
    },
    {
      type: 'containers',
      create: { command: ['echo'], cwd: '/' },
      change: { state: 'Cancelled' },
    },
    {
      type: 'links',
      create: { link_class: 'tag', name: 't', head_uuid: system },
      change: { name: 't2' },
    },
    {
      type: 'workflows',
      create: { name: 'w', definition: 'class: Workflow' },
      change: { name: 'w2' },
    },
    {
      type: 'api_client_authorizations',
      create: { scopes: ['all'] },
      change: { scopes: ['GET /'] },
    },
    {
      type: 'api_clients',
      create: { name: 'app', url_prefix: 'https://app.example' },
      change: { is_trusted: true },
    },
    { type: 'logs', create: { event_type: 'test', summary: 's' }, change: { summary: 's2' } },
  ];
}
