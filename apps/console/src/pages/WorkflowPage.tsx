import { Code, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useObject } from '../api/objects';
import type { Workflow } from '../api/types';
import { ObjectActions } from '../dialogs/ObjectActions';
import { ClusterBadge, Copyable } from '../ui/bits';
import { Crumbs } from '../ui/Crumbs';
import { ErrorBox } from '../ui/ErrorBox';

/** A workflow: its description and definition. */
export default function WorkflowPage() {
  const { uuid } = useParams() as { uuid: string };
  const wf = useObject<Workflow>(uuid);
  if (wf.error) return <ErrorBox error={wf.error} />;
  if (!wf.data) return null;
  const w = wf.data;
  return (
    <Stack>
      <Crumbs ownerUuid={w.owner_uuid} current={w.name ?? w.uuid} />
      <Title order={1}>
        {w.name} <ClusterBadge uuid={w.uuid} />
      </Title>
      {w.description && <Text>{w.description}</Text>}
      <Copyable value={w.uuid} label="uuid" />
      <ObjectActions target={w} />
      <Code block tabIndex={0}>
        {w.definition ?? ''}
      </Code>
    </Stack>
  );
}
