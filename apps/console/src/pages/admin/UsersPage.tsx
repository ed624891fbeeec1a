import { Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { activateUser, deactivateUser } from '../../api/admin';
import { ConfirmDialog } from '../../dialogs/ConfirmDialog';
import { likePattern } from '../../api/contents';
import { messageOf } from '../../api/errors';
import { userLabel } from '../../api/objects';
import { useSignedIn } from '../../api/session';
import type { User } from '../../api/types';
import { ErrorBox } from '../../ui/ErrorBox';
import { ActionsHeader, Pager } from '../../ui/table-parts';

const PAGE = 50;

/** Admins: every user, filtered by name or email; activate and deactivate. */
export default function UsersPage() {
  const { client, user: me } = useSignedIn();
  const queries = useQueryClient();
  const [text, setText] = useState('');
  const [term] = useDebouncedValue(text, 250);
  const [page, setPage] = useState(1);
  const [leaving, setLeaving] = useState<User | null>(null);
  const users = useQuery({
    queryKey: ['admin-users', term, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      client.api.users.list({
        filters: term ? [['any', 'ilike', likePattern(term)]] : [],
        order: ['email asc'],
        limit: PAGE,
        offset: (page - 1) * PAGE,
        count: 'exact',
      }),
  });
  if (!me.is_admin) return <ErrorBox error={new Error('Only admins can manage users.')} />;
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin-users'] });
  const activate = (u: User) =>
    activateUser(client, u.uuid)
      .then(refresh)
      .catch((err) => notifications.show({ color: 'red', message: messageOf(err) }));
  return (
    <Stack>
      <Title order={1}>Users</Title>
      <TextInput
        label="Filter by name or email"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setPage(1);
        }}
        w={320}
      />
      {users.error && <ErrorBox error={users.error} />}
      <Table aria-label="Users" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Status</Table.Th>
            <ActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(users.data?.items as User[] | undefined)?.map((u) => (
            <Table.Tr key={u.uuid}>
              <Table.Td>{userLabel(u)}</Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Badge color={u.is_active ? 'green' : 'gray'} variant="light">
                    {u.is_active ? 'Active' : 'Inactive'}
                  </Badge>
                  {u.is_admin && <Badge variant="light">Admin</Badge>}
                </Group>
              </Table.Td>
              <Table.Td>
                {u.uuid !== me.uuid &&
                  (u.is_active ? (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setLeaving(u)}
                      aria-label={`Deactivate ${userLabel(u)}`}
                    >
                      Deactivate
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      onClick={() => activate(u)}
                      aria-label={`Activate ${userLabel(u)}`}
                    >
                      Activate
                    </Button>
                  ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Pager
        total={users.data?.items_available ?? 0}
        pageSize={PAGE}
        page={page}
        onChange={setPage}
      />
      {leaving && (
        <ConfirmDialog
          title={`Deactivate ${userLabel(leaving)}`}
          text="They leave all users and lose their group memberships, shares, tokens and SSH keys; what they own stays."
          confirmLabel="Deactivate"
          onConfirm={() => deactivateUser(client, leaving.uuid).then(refresh)}
          onClose={() => setLeaving(null)}
        />
      )}
    </Stack>
  );
}
