import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useSession } from '../api/session';
import { ClusterBadge, ObjectIcon, Time } from '../ui/bits';
import { ErrorBox } from '../ui/ErrorBox';

/**
 * One cluster of the federation, through this gateway: its projects and collections the user
 * can read there (lists with `cluster_id`, answered by that cluster).
 */
export default function ClusterPage() {
  const { id } = useParams() as { id: string };
  const { client, config } = useSession();
  const home = config?.ClusterID === id;
  const remote = config?.RemoteClusters?.[id];
  const where = home ? {} : { cluster_id: id };
  const items = useQuery({
    queryKey: ['cluster', id],
    queryFn: async () => {
      const [projects, collections] = await Promise.all([
        client.api.groups.list({
          filters: [['group_class', '=', 'project']],
          order: ['modified_at desc'],
          limit: 50,
          ...where,
        }),
        client.api.collections.list({ order: ['modified_at desc'], limit: 50, ...where }),
      ]);
      return [
        ...projects.items.map((p) => ({ ...p, kind: 'svc#group', path: `/projects/${p.uuid}` })),
        ...collections.items.map((c) => ({
          ...c,
          kind: 'svc#collection',
          path: `/collections/${c.uuid}`,
        })),
      ];
    },
  });
  return (
    <Stack>
      <Group gap="xs">
        <Title order={1}>Cluster {id}</Title>
        <Badge variant="light">{home ? 'home' : 'remote'}</Badge>
      </Group>
      {remote?.Host && (
        <Text size="sm" c="dimmed">
          Reached through this gateway at {remote.Host}
        </Text>
      )}
      {items.error && <ErrorBox error={items.error} />}
      <Table aria-label={`Projects and collections on ${id}`} highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Modified</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.data?.map((o) => (
            <Table.Tr key={o.uuid}>
              <Table.Td>
                <Group gap="xs">
                  <ObjectIcon kind={o.kind} groupClass="project" />
                  <Link to={o.path}>{o.name || o.uuid}</Link>
                  <ClusterBadge uuid={o.uuid} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Time value={o.modified_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {items.data?.length === 0 && <Text c="dimmed">Nothing you can read on this cluster.</Text>}
    </Stack>
  );
}
