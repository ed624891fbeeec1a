import {
  Checkbox,
  Group,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  Center,
  Loader,
  Stack,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconSearch } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  CONTENT_KINDS,
  DEFAULT_VIEW,
  useContents,
  type ContentsView,
  type SortKey,
} from '../../api/contents';
import { pathOf } from '../../api/ids';
import type { ContentItem } from '../../api/types';
import { ClusterBadge, formatBytes, ObjectIcon, StateBadge, Time } from '../../ui/bits';
import { ErrorBox } from '../../ui/ErrorBox';
import { ActionsHeader, Pager } from '../../ui/table-parts';

const KIND_LABELS: Record<string, string> = {
  'svc#group': 'Projects',
  'svc#containerRequest': 'Processes',
  'svc#workflow': 'Workflows',
  'svc#collection': 'Collections',
};

function SortHeader(props: {
  label: string;
  sortKey: SortKey;
  view: ContentsView;
  onSort: (k: SortKey) => void;
}) {
  const active = props.view.sort === props.sortKey;
  return (
    <Table.Th aria-sort={active ? (props.view.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => props.onSort(props.sortKey)} fw={600}>
        <Group gap={4} wrap="nowrap">
          {props.label}
          {active &&
            (props.view.dir === 'asc' ? (
              <IconArrowUp size={14} aria-hidden />
            ) : (
              <IconArrowDown size={14} aria-hidden />
            ))}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** What a row says about its object besides its name. */
function details(item: ContentItem): ReactNode {
  const o = item as Record<string, unknown>;
  if (item.kind === 'svc#collection')
    return `${String(o['file_count'] ?? 0)} files, ${formatBytes(o['file_size_total'] as number)}`;
  if (item.kind === 'svc#containerRequest') return <StateBadge state={String(o['state'])} />;
  if (item.kind === 'svc#group' && o['frozen_by_uuid']) return 'Frozen';
  return '';
}

export interface ContentsTableProps {
  /** Extra `groups.contents` options: the project (`uuid`), `include_trash`, … */
  scope: Record<string, unknown>;
  /** Actions for a row (a menu), if any. */
  rowActions?: (item: ContentItem) => ReactNode;
  emptyText?: string;
  label: string;
  /** The kinds listed (default: all four). */
  kinds?: string[];
}

/**
 * A project's contents (or any `groups.contents` scope): one page at a time, sorted by a column,
 * filtered by name and type. Only the page shown is fetched, counted by the server.
 */
export function ContentsTable(props: ContentsTableProps) {
  const { scope, rowActions, emptyText, label } = props;
  const scopeKinds = props.kinds ?? CONTENT_KINDS;
  const [view, setView] = useState<ContentsView>({ ...DEFAULT_VIEW, scopeKinds });
  const [nameText, setNameText] = useState('');
  const [name] = useDebouncedValue(nameText, 250);
  const effective = { ...view, name, page: name === view.name ? view.page : 1 };
  const page = useContents(effective, scope);
  const total = page.data?.items_available ?? 0;
  const onSort = (k: SortKey) =>
    setView((v) => ({
      ...v,
      name,
      page: 1,
      sort: k,
      dir: v.sort === k ? (v.dir === 'asc' ? 'desc' : 'asc') : k === 'name' ? 'asc' : 'desc',
    }));
  const toggleKind = (k: string, on: boolean) =>
    setView((v) => ({
      ...v,
      name,
      page: 1,
      kinds: on ? [...v.kinds, k] : v.kinds.filter((x) => x !== k),
    }));
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Filter by name"
          leftSection={<IconSearch size={14} aria-hidden />}
          value={nameText}
          onChange={(e) => setNameText(e.currentTarget.value)}
          w={260}
        />
        <Group gap="md" role="group" aria-label="Filter by type">
          {scopeKinds.map((k) => (
            <Checkbox
              key={k}
              label={KIND_LABELS[k]}
              checked={view.kinds.includes(k)}
              onChange={(e) => toggleKind(k, e.currentTarget.checked)}
            />
          ))}
        </Group>
      </Group>
      {page.error ? (
        <ErrorBox error={page.error} />
      ) : (
        <Table highlightOnHover aria-label={label} aria-busy={page.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <SortHeader label="Name" sortKey="name" view={effective} onSort={onSort} />
              <Table.Th>Details</Table.Th>
              <SortHeader label="Modified" sortKey="modified_at" view={effective} onSort={onSort} />
              {rowActions && <ActionsHeader />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.data?.items.map((item) => (
              <Table.Tr key={item.uuid}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <ObjectIcon
                      kind={item.kind}
                      groupClass={(item as { group_class?: string }).group_class ?? null}
                    />
                    <Link to={pathOf(item.uuid) ?? '#'}>{item.name || item.uuid}</Link>
                    <ClusterBadge uuid={item.uuid} />
                  </Group>
                </Table.Td>
                <Table.Td>{details(item)}</Table.Td>
                <Table.Td>
                  <Time value={item.modified_at} />
                </Table.Td>
                {rowActions && <Table.Td>{rowActions(item)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {page.isPending && (
        <Center>
          <Loader size="sm" aria-label="Loading" />
        </Center>
      )}
      {page.data && page.data.items.length === 0 && (
        <Text c="dimmed">{emptyText ?? 'Nothing here yet.'}</Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="items-available">
          {total.toLocaleString()} items
        </Text>
        <Pager
          total={total}
          pageSize={view.pageSize}
          page={view.page}
          onChange={(p) => setView((v) => ({ ...v, name, page: p }))}
        />
      </Group>
    </Stack>
  );
}
