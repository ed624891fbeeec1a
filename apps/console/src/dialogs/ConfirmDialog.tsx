import { Modal, Stack, Text } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { useState } from 'react';
import { messageOf } from '../api/errors';

/** "Are you sure?" for an action that cannot simply be undone. */
export function ConfirmDialog(props: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <Stack>
        <Text>{props.text}</Text>
        <DialogFooter
          error={error}
          onCancel={props.onClose}
          submitLabel={props.confirmLabel}
          color="red"
          onSubmit={() =>
            props
              .onConfirm()
              .then(props.onClose)
              .catch((err) => setError(messageOf(err)))
          }
        />
      </Stack>
    </Modal>
  );
}
