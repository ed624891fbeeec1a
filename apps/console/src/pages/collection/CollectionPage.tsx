import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isPdh } from '../../api/ids';
import { useCanWriteCollection } from '../../api/can-write';
import { useObject } from '../../api/objects';
import { useSignedIn } from '../../api/session';
import type { Collection } from '../../api/types';
import { ObjectActions } from '../../dialogs/ObjectActions';
import { ClusterBadge, Copyable, formatBytes } from '../../ui/bits';
import { Crumbs } from '../../ui/Crumbs';
import { ErrorBox } from '../../ui/ErrorBox';
import { PropertyBadges } from '../../ui/PropertyBadges';
import { FileBrowser } from './FileBrowser';

/** A collection (by uuid, or read-only by portable data hash): its facts and its files. */
export default function CollectionPage() {
  const { id } = useParams() as { id: string };
  const { token } = useSignedIn();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const collection = useObject<Collection>(id);
  const canWrite = useCanWriteCollection(isPdh(id) ? undefined : collection.data);
  if (collection.error) return <ErrorBox error={collection.error} />;
  const c = collection.data;
  if (!c) return null;
  const byPdh = isPdh(id);
  const writable = !byPdh && canWrite.data === true && !c.is_trashed;
  const dir = search.get('path') ?? '';
  return (
    <Stack>
      {!byPdh && <Crumbs ownerUuid={c.owner_uuid} current={c.name ?? c.uuid} />}
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={1}>{byPdh ? 'Collection content' : c.name}</Title>
            <ClusterBadge uuid={c.uuid} />
            {c.is_trashed && <Badge color="red">In the trash</Badge>}
          </Group>
          {c.description && <Text>{c.description}</Text>}
          <PropertyBadges properties={c.properties} />
        </Stack>
        {!byPdh && <ObjectActions target={c} onGone={() => navigate('/trash')} />}
      </Group>
      <Group gap="xl" align="flex-start">
        <div>
          <Text size="xs" c="dimmed">
            Portable data hash
          </Text>
          <Copyable value={c.portable_data_hash} label="portable data hash" />
        </div>
        {!byPdh && (
          <div>
            <Text size="xs" c="dimmed">
              Uuid
            </Text>
            <Copyable value={c.uuid} label="uuid" />
          </div>
        )}
        <Text size="sm">
          {c.file_count} files, {formatBytes(c.file_size_total)}
        </Text>
      </Group>
      <FileBrowser
        token={token!}
        id={byPdh ? id : c.uuid}
        name={c.name ?? id}
        writable={writable}
        dir={dir}
        onDir={(d) => setSearch(d ? { path: d } : {})}
      />
    </Stack>
  );
}
