import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Menu,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDots, IconDownload, IconFile, IconFolder, IconFolderPlus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  fileUrl,
  joinPath,
  listDir,
  makeDir,
  movePath,
  removePath,
  type DirEntry,
} from '../../api/files';
import { messageOf } from '../../api/errors';
import { formatBytes } from '../../ui/bits';
import { ConfirmDialog } from '../../dialogs/ConfirmDialog';
import { NameDialog } from '../../dialogs/NameDialog';
import { ErrorBox } from '../../ui/ErrorBox';
import { downloadFolder } from './download-folder';
import { canView, FileViewer } from './FileViewer';
import { UploadPanel } from './UploadPanel';
import { ActionsHeader } from '../../ui/table-parts';

type Pending =
  | { kind: 'rename' | 'move' | 'delete'; entry: DirEntry }
  | { kind: 'mkdir' }
  | { kind: 'view'; path: string };

/** The folders and files of a collection: browse, view, download, rename, move, delete, upload. */
export function FileBrowser(props: {
  token: string;
  id: string;
  name: string;
  writable: boolean;
  dir: string;
  onDir: (dir: string) => void;
}) {
  const { token, id, dir } = props;
  const queries = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const listing = useQuery({
    queryKey: ['files', id, dir],
    queryFn: () => listDir(token, id, dir),
  });
  const refresh = () =>
    queries
      .invalidateQueries({ queryKey: ['files', id] })
      .then(() => queries.invalidateQueries({ queryKey: ['object', id] }));
  const close = () => setPending(null);
  const parts = dir.split('/').filter(Boolean);
  const entries = [...(listing.data ?? [])].sort((a, b) =>
    a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1,
  );
  const run = (what: Promise<unknown>) => what.then(refresh);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <nav aria-label="Folder">
          <Breadcrumbs>
            <Anchor component="button" type="button" onClick={() => props.onDir('')} size="sm">
              {props.name}
            </Anchor>
            {parts.map((p, i) => (
              <Anchor
                key={i}
                component="button"
                type="button"
                size="sm"
                onClick={() => props.onDir(parts.slice(0, i + 1).join('/'))}
              >
                {p}
              </Anchor>
            ))}
          </Breadcrumbs>
        </nav>
        <Group gap="xs">
          {props.writable && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFolderPlus size={14} aria-hidden />}
              onClick={() => setPending({ kind: 'mkdir' })}
            >
              New folder
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} aria-hidden />}
            onClick={() =>
              downloadFolder(token, id, dir, parts.at(-1) ?? props.name).catch((err) =>
                notifications.show({ color: 'red', message: messageOf(err) }),
              )
            }
          >
            Download folder (zip)
          </Button>
        </Group>
      </Group>
      {props.writable && (
        <UploadPanel token={token} collection={id} dir={dir} onChange={() => void refresh()} />
      )}
      {listing.error ? (
        <ErrorBox error={listing.error} />
      ) : (
        <Table highlightOnHover aria-label="Files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Size</Table.Th>
              <ActionsHeader />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => {
              const path = joinPath(dir, e.name);
              return (
                <Table.Tr key={e.name}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {e.type === 'directory' ? (
                        <IconFolder size={18} aria-hidden />
                      ) : (
                        <IconFile size={18} aria-hidden />
                      )}
                      {e.type === 'directory' ? (
                        <UnstyledButton
                          onClick={() => props.onDir(path)}
                          c="var(--mantine-color-anchor)"
                        >
                          {e.name}/
                        </UnstyledButton>
                      ) : canView(e.name) ? (
                        <UnstyledButton
                          onClick={() => setPending({ kind: 'view', path })}
                          c="var(--mantine-color-anchor)"
                        >
                          {e.name}
                        </UnstyledButton>
                      ) : (
                        <Text size="sm">{e.name}</Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{e.type === 'file' ? formatBytes(e.size) : ''}</Table.Td>
                  <Table.Td>
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <ActionIcon variant="subtle" aria-label={`Actions for ${e.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {e.type === 'file' && (
                          <Menu.Item
                            component="a"
                            href={`${fileUrl(id, path)}?disposition=attachment`}
                            download
                          >
                            Download
                          </Menu.Item>
                        )}
                        {props.writable && (
                          <>
                            <Menu.Item onClick={() => setPending({ kind: 'rename', entry: e })}>
                              Rename
                            </Menu.Item>
                            <Menu.Item onClick={() => setPending({ kind: 'move', entry: e })}>
                              Move to folder…
                            </Menu.Item>
                            <Menu.Item
                              color="red"
                              onClick={() => setPending({ kind: 'delete', entry: e })}
                            >
                              Delete
                            </Menu.Item>
                          </>
                        )}
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {listing.data?.length === 0 && <Text c="dimmed">This folder is empty.</Text>}
      {pending?.kind === 'view' && (
        <FileViewer token={token} collection={id} path={pending.path} onClose={close} />
      )}
      {pending?.kind === 'mkdir' && (
        <NameDialog
          title="New folder"
          submitLabel="Create"
          withDescription={false}
          onSubmit={(v) => run(makeDir(token, id, joinPath(dir, v.name)))}
          onClose={close}
        />
      )}
      {pending?.kind === 'rename' && (
        <NameDialog
          title={`Rename “${pending.entry.name}”`}
          submitLabel="Rename"
          withDescription={false}
          initial={{ name: pending.entry.name }}
          onSubmit={(v) =>
            run(movePath(token, id, joinPath(dir, pending.entry.name), joinPath(dir, v.name)))
          }
          onClose={close}
        />
      )}
      {pending?.kind === 'move' && (
        <NameDialog
          title={`Move “${pending.entry.name}” to folder`}
          submitLabel="Move"
          withDescription={false}
          initial={{ name: dir }}
          onSubmit={(v) =>
            run(
              movePath(
                token,
                id,
                joinPath(dir, pending.entry.name),
                joinPath(v.name, pending.entry.name),
              ),
            )
          }
          onClose={close}
        />
      )}
      {pending?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete"
          text={`“${pending.entry.name}” is removed from this collection.`}
          confirmLabel="Delete"
          onConfirm={() => run(removePath(token, id, joinPath(dir, pending.entry.name)))}
          onClose={close}
        />
      )}
    </Stack>
  );
}
