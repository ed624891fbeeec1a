import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { joinCommand, splitCommand } from '../../api/command-line';
import { likePattern } from '../../api/contents';
import { messageOf } from '../../api/errors';
import { useSignedIn } from '../../api/session';
import type { ContainerRequest } from '../../api/types';
import { ErrorBox } from '../../ui/ErrorBox';

const MiB = 1024 * 1024;

interface RunForm {
  name: string;
  image: string;
  command: string;
  inputs: string[];
  vcpus: number;
  ramMiB: number;
  owner: string;
  /** Mounts kept from the request run again, besides its collection inputs. */
  otherMounts: Record<string, unknown>;
}

const OUTPUT_MOUNT = { '/out': { kind: 'tmp', capacity: 1024 * MiB } };

/** A form pre-filled from a request (run again), or empty. */
function formFrom(cr: ContainerRequest | null, owner: string): RunForm {
  if (!cr)
    return {
      name: '',
      image: '',
      command: '',
      inputs: [],
      vcpus: 1,
      ramMiB: 256,
      owner,
      otherMounts: OUTPUT_MOUNT,
    };
  const mounts = (cr.mounts ?? {}) as Record<string, { kind?: string; uuid?: string }>;
  const inputs = Object.values(mounts).filter((m) => m.kind === 'collection' && m.uuid);
  const other = Object.fromEntries(
    Object.entries(mounts).filter(([, m]) => !(m.kind === 'collection' && m.uuid)),
  );
  const rc = (cr.runtime_constraints ?? {}) as { vcpus?: number; ram?: number };
  return {
    name: cr.name ? `${cr.name} (again)` : '',
    image: cr.container_image ?? '',
    command: joinCommand((cr.command ?? []).map(String)),
    inputs: inputs.map((m) => m.uuid!),
    vcpus: rc.vcpus ?? 1,
    ramMiB: Math.round((rc.ram ?? 256 * MiB) / MiB),
    owner: cr.owner_uuid,
    otherMounts: other,
  };
}

/** `/inputs/<name>`: a mount path from a collection's name. */
const inputPath = (name: string, uuid: string) =>
  `/inputs/${(name || uuid).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_')}`;

function InputPicker(props: {
  value: string[];
  onChange: (v: string[]) => void;
  names: Map<string, string>;
}) {
  const { client } = useSignedIn();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search, 250);
  const found = useQuery({
    queryKey: ['input-collections', term],
    queryFn: async () =>
      (
        await client.api.collections.list({
          filters: term ? [['name', 'ilike', likePattern(term)]] : [],
          order: ['modified_at desc'],
          limit: 30,
          select: ['uuid', 'name'],
        })
      ).items,
  });
  for (const c of found.data ?? []) props.names.set(c.uuid, c.name ?? c.uuid);
  const data = [...new Set([...props.value, ...(found.data ?? []).map((c) => c.uuid)])].map(
    (uuid) => ({
      value: uuid,
      label: props.names.get(uuid) ?? uuid,
    }),
  );
  return (
    <MultiSelect
      label="Inputs"
      placeholder="Search collections by name"
      description="Collections mounted read-only at /inputs/<name>"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      data={data}
      value={props.value}
      onChange={props.onChange}
      nothingFoundMessage="No collection matches"
    />
  );
}

function Form({ initial }: { initial: RunForm }) {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const [form, setForm] = useState(initial);
  const [names] = useState(() => new Map<string, string>());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<RunForm>) => setForm((f) => ({ ...f, ...patch }));
  const submit = async () => {
    const command = splitCommand(form.command);
    if (command.length === 0) throw new Error('The command is empty.');
    const mounts: Record<string, unknown> = { ...form.otherMounts };
    for (const uuid of form.inputs)
      mounts[inputPath(names.get(uuid) ?? '', uuid)] = { kind: 'collection', uuid };
    const cr = await client.api.containerRequests.create({
      attributes: {
        name: form.name || command.join(' ').slice(0, 100),
        owner_uuid: form.owner,
        container_image: form.image.trim(),
        command,
        cwd: '/',
        output_path: '/out',
        mounts,
        runtime_constraints: { vcpus: form.vcpus, ram: form.ramMiB * MiB },
        priority: 1,
        state: 'Committed',
      },
    });
    navigate(`/processes/${cr.uuid}`);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        submit()
          .catch((err) => setError(messageOf(err)))
          .finally(() => setBusy(false));
      }}
    >
      <Stack maw={720}>
        <TextInput
          label="Name"
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
        />
        <TextInput
          label="Image"
          description="An image name (repository:tag) or the portable data hash of an image collection"
          required
          value={form.image}
          onChange={(e) => set({ image: e.currentTarget.value })}
        />
        <TextInput
          label="Command"
          description="Split into arguments as a shell would, e.g. sh -c 'echo hi > /out/x'"
          required
          value={form.command}
          onChange={(e) => set({ command: e.currentTarget.value })}
          ff="monospace"
        />
        <InputPicker value={form.inputs} onChange={(inputs) => set({ inputs })} names={names} />
        <Group grow>
          <NumberInput
            label="CPUs"
            min={1}
            value={form.vcpus}
            onChange={(v) => set({ vcpus: Number(v) || 1 })}
          />
          <NumberInput
            label="Memory (MiB)"
            min={16}
            value={form.ramMiB}
            onChange={(v) => set({ ramMiB: Number(v) || 256 })}
          />
        </Group>
        <Text size="sm" c="dimmed">
          Output: whatever the command writes to /out becomes the output collection.
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            Run
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Start a process: image, command, inputs, resources; opens the new process's page. */
export default function RunPage() {
  const { client, user } = useSignedIn();
  const [search] = useSearchParams();
  const from = search.get('from');
  const original = useQuery({
    queryKey: ['object', from, false],
    enabled: from !== null,
    queryFn: () => client.api.containerRequests.get({ uuid: from! }) as Promise<ContainerRequest>,
  });
  if (original.error) return <ErrorBox error={original.error} />;
  if (from && !original.data) return null;
  return (
    <Stack>
      <Title order={1}>{from ? 'Run again' : 'Run a process'}</Title>
      <Form
        key={from ?? 'new'}
        initial={formFrom(original.data ?? null, search.get('owner') ?? user.uuid)}
      />
    </Stack>
  );
}
