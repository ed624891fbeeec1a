import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { messageOf } from '../api/errors';
import { useSession } from '../api/session';
import {
  LEVEL_LABELS,
  LEVELS,
  usePermissions,
  usePrincipalNames,
  usePrincipalSearch,
  type Level,
} from '../api/sharing';
import { ClusterBadge } from '../ui/bits';
import { ErrorBox } from '../ui/ErrorBox';
import { ActionsHeader } from '../ui/table-parts';

const levelOptions = LEVELS.map((l) => ({ value: l, label: LEVEL_LABELS[l] }));

function AddPerson({ head, onError }: { head: string; onError: (m: string | null) => void }) {
  const { client, config } = useSession();
  const queries = useQueryClient();
  const clusters = [config?.ClusterID ?? '', ...Object.keys(config?.RemoteClusters ?? {})];
  const [cluster, setCluster] = useState(clusters[0]!);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search, 250);
  const [who, setWho] = useState<string | null>(null);
  const [level, setLevel] = useState<Level>('can_read');
  const found = usePrincipalSearch(term, cluster);
  const add = () =>
    client.api.links
      .create({
        attributes: { link_class: 'permission', name: level, tail_uuid: who!, head_uuid: head },
      })
      .then(() => {
        setWho(null);
        setSearch('');
        onError(null);
        return queries.invalidateQueries({ queryKey: ['permissions', head] });
      })
      .catch((err) => onError(messageOf(err)));
  return (
    <Group align="flex-end" wrap="nowrap">
      {clusters.length > 1 && (
        <Select
          label="Cluster"
          data={clusters}
          value={cluster}
          onChange={(v) => v && setCluster(v)}
          w={110}
          allowDeselect={false}
        />
      )}
      <Select
        label="Person or group"
        placeholder="Name or email"
        searchable
        flex={1}
        searchValue={search}
        onSearchChange={setSearch}
        value={who}
        onChange={setWho}
        filter={({ options }) => options}
        data={(found.data ?? []).map((p) => ({
          value: p.uuid,
          label: `${p.label} (${p.detail})`,
        }))}
        nothingFoundMessage={term ? 'Nobody matches' : 'Type a name or email'}
      />
      <Select
        label="Access"
        data={levelOptions}
        value={level}
        onChange={(v) => v && setLevel(v as Level)}
        allowDeselect={false}
        w={140}
      />
      <Button onClick={add} disabled={!who}>
        Share
      </Button>
    </Group>
  );
}

/** Who can read, write or manage an object; add and remove users and groups. */
export function SharingDialog(props: { uuid: string; name: string; onClose: () => void }) {
  return (
    <Modal opened onClose={props.onClose} title={`Share “${props.name}”`} size="xl">
      <SharingPanel uuid={props.uuid} title="Who has access" />
    </Modal>
  );
}

/**
 * The permission links on an object, as people and levels: sharing a project or collection,
 * or the members of a group (a member is a user with a link to the group).
 */
export function SharingPanel(props: { uuid: string; title: string }) {
  const { client } = useSession();
  const queries = useQueryClient();
  const links = usePermissions(props.uuid);
  const tails = (links.data ?? []).map((l) => l.tail_uuid ?? '').filter(Boolean);
  const names = usePrincipalNames(tails);
  const [error, setError] = useState<string | null>(null);
  const change = (p: Promise<unknown>) =>
    p
      .then(() => queries.invalidateQueries({ queryKey: ['permissions', props.uuid] }))
      .catch((err) => setError(messageOf(err)));
  return (
    <Stack>
      <AddPerson head={props.uuid} onError={setError} />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Title order={2} size="h4">
        {props.title}
      </Title>
      {links.error ? (
        <ErrorBox error={links.error} />
      ) : (
        <Table aria-label={props.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User or group</Table.Th>
              <Table.Th>Access</Table.Th>
              <ActionsHeader label="Remove" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(links.data ?? []).map((l) => {
              const tail = l.tail_uuid ?? '';
              const name = names.data?.get(tail) ?? tail;
              return (
                <Table.Tr key={l.uuid}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text size="sm">{name}</Text>
                      <ClusterBadge uuid={tail} />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Access of ${name}`}
                      data={levelOptions}
                      value={l.name}
                      allowDeselect={false}
                      onChange={(v) =>
                        v &&
                        change(client.api.links.update({ uuid: l.uuid, attributes: { name: v } }))
                      }
                      w={150}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${name}`}
                      onClick={() => change(client.api.links.delete({ uuid: l.uuid }))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {links.data?.length === 0 && <Text c="dimmed">Nobody yet.</Text>}
    </Stack>
  );
}
