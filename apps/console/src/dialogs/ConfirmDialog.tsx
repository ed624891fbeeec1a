import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
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
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() =>
              props
                .onConfirm()
                .then(props.onClose)
                .catch((err) => setError(messageOf(err)))
            }
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
