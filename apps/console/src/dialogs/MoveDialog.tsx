import { Modal, Select, Stack } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { likePattern } from '../api/contents';
import { messageOf } from '../api/errors';
import { useSignedIn } from '../api/session';
import type { Group as GroupObj } from '../api/types';

/** Choose a project (or Home) to move an object into: projects the user can write, by name. */
export function MoveDialog(props: {
  name: string;
  exclude: string;
  onSubmit: (ownerUuid: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { client, user } = useSignedIn();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search, 250);
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const projects = useQuery({
    queryKey: ['move-targets', term],
    queryFn: async () =>
      (
        await client.api.groups.list({
          filters: [
            ['group_class', '=', 'project'],
            ...(term ? [['name', 'ilike', likePattern(term)] as ['name', 'ilike', string]] : []),
          ],
          order: ['name asc'],
          limit: 50,
          select: ['uuid', 'name', 'can_write'],
        })
      ).items as Pick<GroupObj, 'uuid' | 'name' | 'can_write'>[],
  });
  const options = [
    { value: user.uuid, label: 'Home' },
    ...(projects.data ?? [])
      .filter((p) => p.can_write && p.uuid !== props.exclude)
      .map((p) => ({ value: p.uuid, label: p.name ?? p.uuid })),
  ];
  return (
    <Modal opened onClose={props.onClose} title={`Move “${props.name}”`}>
      <Stack>
        <Select
          label="Destination project"
          searchable
          data={options}
          value={target}
          onChange={setTarget}
          onSearchChange={setSearch}
          searchValue={search}
          nothingFoundMessage="No writable project matches"
        />
        <DialogFooter
          error={error}
          onCancel={props.onClose}
          submitLabel="Move"
          disabled={target === null}
          onSubmit={() =>
            props
              .onSubmit(target!)
              .then(props.onClose)
              .catch((err) => setError(messageOf(err)))
          }
        />
      </Stack>
    </Modal>
  );
}
