import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { useState } from 'react';
import { messageOf } from '../api/errors';

export interface NameValues {
  name: string;
  description: string;
}

/** Name and description of a new or existing object; the server's refusal shown in place. */
export function NameDialog(props: {
  title: string;
  submitLabel: string;
  initial?: Partial<NameValues>;
  withName?: boolean;
  withDescription?: boolean;
  onSubmit: (v: NameValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          props
            .onSubmit({ name: name.trim(), description })
            .then(props.onClose)
            .catch((err) => setError(messageOf(err)))
            .finally(() => setBusy(false));
        }}
      >
        <Stack>
          {props.withName !== false && (
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
              data-autofocus
            />
          )}
          {props.withDescription !== false && (
            <Textarea
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              autosize
              minRows={3}
            />
          )}
          <DialogFooter
            error={error}
            onCancel={props.onClose}
            submitLabel={props.submitLabel}
            busy={busy}
          />
        </Stack>
      </form>
    </Modal>
  );
}
