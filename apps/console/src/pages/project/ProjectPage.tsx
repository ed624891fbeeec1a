import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { typeOfUuid } from '../../api/ids';
import { useObject, userLabel } from '../../api/objects';
import { useSignedIn } from '../../api/session';
import type { Group as Project, User } from '../../api/types';
import { ObjectActions } from '../../dialogs/ObjectActions';
import { ClusterBadge, Copyable } from '../../ui/bits';
import { Crumbs } from '../../ui/Crumbs';
import { ErrorBox } from '../../ui/ErrorBox';
import { PropertyBadges } from '../../ui/PropertyBadges';
import { ContentsTable } from './ContentsTable';
import { NewMenu } from './NewMenu';

function HomeHeader({ owner }: { owner: User }) {
  const { user } = useSignedIn();
  return (
    <Group justify="space-between">
      <Stack gap={4}>
        <Title order={1}>{owner.uuid === user.uuid ? 'Home' : `${userLabel(owner)}’s home`}</Title>
        <Text size="sm" c="dimmed">
          Everything owned directly by {owner.uuid === user.uuid ? 'you' : userLabel(owner)}.
        </Text>
      </Stack>
      {owner.uuid === user.uuid && <NewMenu owner={owner.uuid} />}
    </Group>
  );
}

function ProjectHeader({ project }: { project: Project }) {
  const navigate = useNavigate();
  return (
    <Stack gap="xs">
      <Crumbs ownerUuid={project.owner_uuid} current={project.name ?? project.uuid} />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={1}>{project.name}</Title>
            <ClusterBadge uuid={project.uuid} />
            {project.frozen_by_uuid && <Badge color="cyan">Frozen</Badge>}
          </Group>
          {project.description && <Text>{project.description}</Text>}
          <PropertyBadges properties={project.properties} />
          <Copyable value={project.uuid} label="uuid" />
        </Stack>
        <Group>
          {project.can_write && !project.frozen_by_uuid && <NewMenu owner={project.uuid} />}
          <ObjectActions target={project} onGone={() => navigate('/trash')} />
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * A project (or a user's home): header, actions, and its contents. The contents are asked for
 * at once, beside the project itself: the first page of a large project shows after one round
 * trip.
 */
export default function ProjectPage() {
  const { uuid } = useParams() as { uuid: string };
  const object = useObject<Project | User>(uuid);
  if (object.error) return <ErrorBox error={object.error} />;
  const isUser = typeOfUuid(uuid) === 'users';
  const group = object.data as Project | undefined;
  if (!isUser && group?.group_class === 'role') return <Navigate to={`/groups/${uuid}`} replace />;
  return (
    <Stack>
      {object.data &&
        (isUser ? <HomeHeader owner={object.data as User} /> : <ProjectHeader project={group!} />)}
      <ContentsTable
        key={uuid}
        label="Contents"
        scope={{ uuid }}
        rowActions={(item) => <ObjectActions target={item} compact />}
        emptyText="This project is empty."
      />
    </Stack>
  );
}
