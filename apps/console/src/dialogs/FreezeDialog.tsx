import { List, Modal, Stack, Text } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { useState } from 'react';
import { messageOf } from '../api/errors';
import { useSignedIn } from '../api/session';
import type { Group as Project } from '../api/types';

/**
 * Freeze (or unfreeze) a project, saying first what the cluster requires: a description, some
 * properties, and whether only admins may unfreeze (API.FreezeProject…, API.Unfreeze…).
 */
export function FreezeDialog(props: {
  project: Project;
  onSubmit: (frozenBy: string | null) => Promise<unknown>;
  onClose: () => void;
}) {
  const { config, user } = useSignedIn();
  const [error, setError] = useState<string | null>(null);
  const frozen = Boolean(props.project.frozen_by_uuid);
  const api = config?.API ?? {};
  const needs = [
    ...(api.FreezeProjectRequiresDescription ? ['a description'] : []),
    ...(api.FreezeProjectRequiresProperties ?? []).map((k) => `a value for the property “${k}”`),
  ];
  return (
    <Modal opened onClose={props.onClose} title={frozen ? 'Unfreeze project' : 'Freeze project'}>
      <Stack>
        {frozen ? (
          <Text>
            Unfreezing lets its contents change again.
            {api.UnfreezeProjectRequiresAdmin && ' On this cluster only an admin can unfreeze.'}
          </Text>
        ) : (
          <>
            <Text>
              A frozen project and everything in it can no longer change, move or be trashed until
              it is unfrozen.
            </Text>
            {needs.length > 0 && (
              <>
                <Text size="sm">This cluster requires, before freezing:</Text>
                <List size="sm">
                  {needs.map((n) => (
                    <List.Item key={n}>{n}</List.Item>
                  ))}
                </List>
              </>
            )}
            {api.UnfreezeProjectRequiresAdmin && (
              <Text size="sm">Once frozen, only an admin can unfreeze it.</Text>
            )}
          </>
        )}
        <DialogFooter
          error={error}
          onCancel={props.onClose}
          submitLabel={frozen ? 'Unfreeze' : 'Freeze'}
          color={frozen ? 'blue' : 'cyan'}
          onSubmit={() =>
            props
              .onSubmit(frozen ? null : user.uuid)
              .then(props.onClose)
              .catch((err) => setError(messageOf(err)))
          }
        />
      </Stack>
    </Modal>
  );
}
