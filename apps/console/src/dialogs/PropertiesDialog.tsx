import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { messageOf } from '../api/errors';

type Row = { key: string; value: string };

const toRows = (props: Record<string, unknown>): Row[] =>
  Object.entries(props).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));

/** A value typed as JSON (a number, a list) stays that; anything else is a string. */
function parseValue(text: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\]|\{.*\})$/s.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Key/value properties of an object; saving replaces the whole hash (as update does). */
export function PropertiesDialog(props: {
  initial: Record<string, unknown>;
  onSubmit: (properties: Record<string, unknown>) => Promise<unknown>;
  onClose: () => void;
}) {
  const [rows, setRows] = useState<Row[]>(() => toRows(props.initial));
  const [error, setError] = useState<string | null>(null);
  const set = (i: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (i === j ? { ...r, ...patch } : r)));
  const save = () => {
    const out: Record<string, unknown> = {};
    for (const r of rows) if (r.key.trim() !== '') out[r.key.trim()] = parseValue(r.value);
    props
      .onSubmit(out)
      .then(props.onClose)
      .catch((err) => setError(messageOf(err)));
  };
  return (
    <Modal opened onClose={props.onClose} title="Properties" size="lg">
      <Stack>
        {rows.length === 0 && <Text c="dimmed">No properties.</Text>}
        {rows.map((r, i) => (
          <Group key={i} wrap="nowrap" align="flex-end">
            <TextInput
              label={`Key ${i + 1}`}
              value={r.key}
              onChange={(e) => set(i, { key: e.currentTarget.value })}
              flex={1}
            />
            <TextInput
              label={`Value ${i + 1}`}
              value={r.value}
              onChange={(e) => set(i, { value: e.currentTarget.value })}
              flex={2}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove property ${r.key || i + 1}`}
              onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
              mb={4}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setRows((rs) => [...rs, { key: '', value: '' }])}
          w="fit-content"
        >
          Add property
        </Button>
        <DialogFooter
          error={error}
          onCancel={props.onClose}
          submitLabel="Save properties"
          onSubmit={save}
        />
      </Stack>
    </Modal>
  );
}
