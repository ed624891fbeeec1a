import { ActionIcon, Badge, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import {
  IconCheck,
  IconCopy,
  IconCpu,
  IconFiles,
  IconFolder,
  IconFilter,
  IconSitemap,
  IconUsersGroup,
} from '@tabler/icons-react';
import { clusterOf } from '../api/ids';
import { useSession } from '../api/session';

/** The icon of an object's kind (and group class). */
export function ObjectIcon({ kind, groupClass }: { kind: string; groupClass?: string | null }) {
  const props = { size: 18, 'aria-hidden': true } as const;
  if (kind === 'svc#group') {
    if (groupClass === 'role') return <IconUsersGroup {...props} />;
    if (groupClass === 'filter') return <IconFilter {...props} />;
    return <IconFolder {...props} />;
  }
  if (kind === 'svc#collection') return <IconFiles {...props} />;
  if (kind === 'svc#containerRequest') return <IconCpu {...props} />;
  return <IconSitemap {...props} />;
}

/** Marks an object of another cluster with that cluster's id. */
export function ClusterBadge({ uuid }: { uuid: string }) {
  const { config } = useSession();
  const cluster = clusterOf(uuid);
  if (!cluster || !config || cluster === config.ClusterID) return null;
  return (
    <Badge variant="outline" color="grape" size="sm" title={`On cluster ${cluster}`}>
      {cluster}
    </Badge>
  );
}

/** A timestamp in the reader's time zone (the full UTC value on hover). */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <Text span>—</Text>;
  const d = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {d.toLocaleString()}
    </time>
  );
}

/** A value worth copying (uuid, PDH), in monospace, with a copy button. */
export function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
            <ActionIcon
              variant="subtle"
              onClick={copy}
              aria-label={`Copy ${label}`}
              color={copied ? 'teal' : 'gray'}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

const STATE_COLORS: Record<string, string> = {
  Uncommitted: 'gray',
  Committed: 'blue',
  Final: 'gray',
  Queued: 'blue',
  Locked: 'blue',
  Running: 'cyan',
  Complete: 'green',
  Completed: 'green',
  Cancelling: 'orange',
  Draft: 'gray',
  Cancelled: 'orange',
  Failed: 'red',
};

/** A process state as a coloured badge. */
export function StateBadge({ state }: { state: string }) {
  return (
    <Badge color={STATE_COLORS[state] ?? 'gray'} variant="light">
      {state}
    </Badge>
  );
}

/** Bytes in binary units. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}
