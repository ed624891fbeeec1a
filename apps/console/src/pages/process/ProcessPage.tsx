import { Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerStop, IconRepeat } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { joinCommand } from '../../api/command-line';
import { messageOf } from '../../api/errors';
import { pathOf } from '../../api/ids';
import { useUpdate } from '../../api/objects';
import { processStatus, useChildren, useProcess } from '../../api/processes';
import type { Container, ContainerRequest } from '../../api/types';
import { ObjectActions } from '../../dialogs/ObjectActions';
import { ClusterBadge, Copyable, formatBytes, StateBadge, Time } from '../../ui/bits';
import { Crumbs } from '../../ui/Crumbs';
import { ErrorBox } from '../../ui/ErrorBox';
import { LiveLog } from './LiveLog';

function duration(from?: string | null, to?: string | null): string {
  if (!from) return '—';
  const s = Math.max(0, ((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 1000);
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function Facts({ cr, c }: { cr: ContainerRequest; c: Container | null }) {
  const rc = (cr.runtime_constraints ?? {}) as { vcpus?: number; ram?: number };
  const rows: [string, React.ReactNode][] = [
    ['Command', <Code key="c">{joinCommand((cr.command ?? []).map(String))}</Code>],
    ['Image', <Code key="i">{cr.container_image}</Code>],
    ['Working directory', cr.cwd],
    ['Resources', `${rc.vcpus ?? '—'} CPU, ${formatBytes(rc.ram)} RAM`],
    ['Started', <Time key="s" value={c?.started_at} />],
    ['Finished', <Time key="f" value={c?.finished_at} />],
    ['Run time', duration(c?.started_at, c?.finished_at)],
    ['Exit code', c?.exit_code ?? '—'],
  ];
  return (
    <Table aria-label="Process details" variant="vertical" withTableBorder>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={180}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Mounts({ cr }: { cr: ContainerRequest }) {
  const mounts = Object.entries((cr.mounts ?? {}) as Record<string, Record<string, unknown>>);
  return (
    <Table aria-label="Mounts" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Path</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>Source</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {mounts.map(([path, m]) => {
          const id = (m['uuid'] ?? m['portable_data_hash']) as string | undefined;
          return (
            <Table.Tr key={path}>
              <Table.Td>
                <Code>{path}</Code>
              </Table.Td>
              <Table.Td>{String(m['kind'])}</Table.Td>
              <Table.Td>
                {id ? (
                  <Link to={pathOf(id) ?? '#'}>{id}</Link>
                ) : m['capacity'] ? (
                  formatBytes(m['capacity'] as number)
                ) : (
                  ''
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function Children({ container }: { container: string | null }) {
  const children = useChildren(container);
  if (!children.data?.length) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Child processes
      </Title>
      {children.data.map((c) => (
        <Link key={c.uuid} to={`/processes/${c.uuid}`}>
          {c.name || c.uuid}
        </Link>
      ))}
    </Stack>
  );
}

/** A process: status, what it runs, its inputs and outputs, children, and its live log. */
export default function ProcessPage() {
  const { uuid } = useParams() as { uuid: string };
  const process = useProcess(uuid);
  const update = useUpdate();
  if (process.error) return <ErrorBox error={process.error} />;
  if (!process.data) return null;
  const { cr, container } = process.data;
  const status = processStatus(cr, container);
  const cancellable = cr.state === 'Committed' && (cr.priority ?? 0) > 0;
  const cancel = () =>
    update
      .mutateAsync({ uuid, attributes: { priority: 0 } })
      .catch((err) => notifications.show({ color: 'red', message: messageOf(err) }));
  return (
    <Stack>
      <Crumbs ownerUuid={cr.owner_uuid} current={cr.name || cr.uuid} />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={1}>{cr.name || 'Process'}</Title>
            <ClusterBadge uuid={cr.uuid} />
            <span data-testid="process-status">
              <StateBadge state={status} />
            </span>
          </Group>
          <Copyable value={cr.uuid} label="uuid" />
        </Stack>
        <Group>
          {cancellable && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconPlayerStop size={16} aria-hidden />}
              onClick={cancel}
            >
              Cancel
            </Button>
          )}
          <Button
            component={Link}
            to={`/run?from=${cr.uuid}`}
            variant="default"
            leftSection={<IconRepeat size={16} aria-hidden />}
          >
            Run again
          </Button>
          <ObjectActions target={cr} />
        </Group>
      </Group>
      <Facts cr={cr} c={container} />
      <Group gap="xl">
        <Text size="sm">
          Output:{' '}
          {cr.output_uuid ? (
            <Link to={`/collections/${cr.output_uuid}`}>output collection</Link>
          ) : (
            'not yet'
          )}
        </Text>
        <Text size="sm">
          Log:{' '}
          {cr.log_uuid ? <Link to={`/collections/${cr.log_uuid}`}>log collection</Link> : 'not yet'}
        </Text>
      </Group>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          Log
        </Title>
        <LiveLog cr={cr} container={container} />
      </Card>
      <Title order={2} size="h4">
        Mounts
      </Title>
      <Mounts cr={cr} />
      <Children container={cr.container_uuid} />
    </Stack>
  );
}
