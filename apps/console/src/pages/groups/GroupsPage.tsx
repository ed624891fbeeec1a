import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { NameDialog } from '../../dialogs/NameDialog';
import { ClusterBadge, Time } from '../../ui/bits';
import { ErrorBox } from '../../ui/ErrorBox';

/** Role groups the user can read; create one (its creator manages it). */
export default function GroupsPage() {
  const { client } = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const roles = useQuery({
    queryKey: ['roles'],
    queryFn: async () =>
      (
        await client.api.groups.list({
          filters: [['group_class', '=', 'role']],
          order: ['name asc'],
          limit: 1000,
        })
      ).items,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Groups</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          New group
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Share a project or collection with a group to give each of its members access.
      </Text>
      {roles.error && <ErrorBox error={roles.error} />}
      <Table aria-label="Groups" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.data?.map((g) => (
            <Table.Tr key={g.uuid}>
              <Table.Td>
                <Link to={`/groups/${g.uuid}`}>{g.name}</Link> <ClusterBadge uuid={g.uuid} />
              </Table.Td>
              <Table.Td>
                <Time value={g.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {creating && (
        <NameDialog
          title="New group"
          submitLabel="Create"
          onSubmit={async (v) => {
            const g = await client.api.groups.create({
              attributes: { name: v.name, description: v.description || null, group_class: 'role' },
            });
            navigate(`/groups/${g.uuid}`);
          }}
          onClose={() => setCreating(false)}
        />
      )}
    </Stack>
  );
}
