import { Group, Stack, Table, Text, Title, Button } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { processStatus, useProcessList } from '../../api/processes';
import { ClusterBadge, StateBadge, Time } from '../../ui/bits';
import { ErrorBox } from '../../ui/ErrorBox';
import { Pager } from '../../ui/table-parts';

const PAGE = 50;

/** Every process the user can read, newest first, with its state. */
export default function ProcessesPage() {
  const [page, setPage] = useState(1);
  const list = useProcessList(page, PAGE);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Processes</Title>
        <Button component={Link} to="/run" leftSection={<IconPlayerPlay size={16} aria-hidden />}>
          Run a process
        </Button>
      </Group>
      {list.error && <ErrorBox error={list.error} />}
      <Table highlightOnHover aria-label="Processes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data?.rows.map(({ cr, container }) => (
            <Table.Tr key={cr.uuid}>
              <Table.Td>
                <Group gap="xs">
                  <Link to={`/processes/${cr.uuid}`}>{cr.name || cr.uuid}</Link>
                  <ClusterBadge uuid={cr.uuid} />
                </Group>
              </Table.Td>
              <Table.Td>
                <StateBadge state={processStatus(cr, container)} />
              </Table.Td>
              <Table.Td>
                <Time value={cr.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.data?.rows.length === 0 && <Text c="dimmed">No processes yet.</Text>}
      <Pager total={list.data?.total ?? 0} pageSize={PAGE} page={page} onChange={setPage} />
    </Stack>
  );
}
