import { Group as Row, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { useObject } from '../../api/objects';
import type { Group } from '../../api/types';
import { ObjectActions } from '../../dialogs/ObjectActions';
import { SharingPanel } from '../../dialogs/SharingDialog';
import { ClusterBadge, Copyable } from '../../ui/bits';
import { ErrorBox } from '../../ui/ErrorBox';

/** A role group and its members (users linked to it, with their level). */
export default function GroupPage() {
  const { uuid } = useParams() as { uuid: string };
  const navigate = useNavigate();
  const group = useObject<Group>(uuid);
  if (group.error) return <ErrorBox error={group.error} />;
  if (!group.data) return null;
  const g = group.data;
  return (
    <Stack>
      <Row justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>
            {g.name} <ClusterBadge uuid={g.uuid} />
          </Title>
          {g.description && <Text>{g.description}</Text>}
          <Copyable value={g.uuid} label="uuid" />
        </Stack>
        <ObjectActions target={g} onGone={() => navigate('/groups')} />
      </Row>
      <Text size="sm" c="dimmed">
        “Can read” makes a member; “Can manage” lets them manage the group too.
      </Text>
      <SharingPanel uuid={g.uuid} title="Members" />
    </Stack>
  );
}
