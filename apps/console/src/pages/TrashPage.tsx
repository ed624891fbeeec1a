import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { messageOf } from '../api/errors';
import { typeOfUuid } from '../api/ids';
import { useApiMutation } from '../api/objects';
import type { ContentItem } from '../api/types';
import { Time } from '../ui/bits';
import { ContentsTable } from './project/ContentsTable';

function TrashActions({ item }: { item: ContentItem }) {
  const untrash = useApiMutation<{ uuid: string }>(
    (v) => `svc.${typeOfUuid(v.uuid)}.untrash`,
    (v) => ({ uuid: v.uuid, ensure_unique_name: true }),
  );
  const deleteAt = (item as { delete_at?: string | null }).delete_at;
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        leftSection={<IconRestore size={14} aria-hidden />}
        aria-label={`Restore ${item.name}`}
        loading={untrash.isPending}
        onClick={() =>
          untrash.mutate(
            { uuid: item.uuid },
            {
              onSuccess: () => notifications.show({ message: `Restored “${item.name}”` }),
              onError: (err) => notifications.show({ color: 'red', message: messageOf(err) }),
            },
          )
        }
      >
        Restore
      </Button>
      {deleteAt && (
        <Text size="xs" c="dimmed">
          deleted for good <Time value={deleteAt} />
        </Text>
      )}
    </Group>
  );
}

/** Trashed projects and collections, until they are deleted for good; restore them here. */
export default function TrashPage() {
  return (
    <Stack>
      <Stack gap={4}>
        <Title order={1}>Trash</Title>
        <Text size="sm" c="dimmed">
          Trashed projects and collections stay here until their deletion time, and can be restored
          until then.
        </Text>
      </Stack>
      <ContentsTable
        label="Trash"
        scope={{ include_trash: true, filters: [['is_trashed', '=', true]] }}
        kinds={['svc#group', 'svc#collection']}
        rowActions={(item) => <TrashActions item={item} />}
        emptyText="The trash is empty."
      />
    </Stack>
  );
}
