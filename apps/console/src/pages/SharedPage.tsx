import { Stack, Text, Title } from '@mantine/core';
import { ObjectActions } from '../dialogs/ObjectActions';
import { ContentsTable } from './project/ContentsTable';

/** Objects other people shared with you, outside your home project. */
export default function SharedPage() {
  return (
    <Stack>
      <Stack gap={4}>
        <Title order={1}>Shared with me</Title>
        <Text size="sm" c="dimmed">
          Projects and collections that other people (or your groups) gave you access to.
        </Text>
      </Stack>
      <ContentsTable
        label="Shared with me"
        scope={{ exclude_home_project: true }}
        rowActions={(item) => <ObjectActions target={item} compact />}
        emptyText="Nothing has been shared with you yet."
      />
    </Stack>
  );
}
