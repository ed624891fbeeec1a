import { Badge, Code, Group, Tabs, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { LOG_FILES, useLiveLog, type LogFile } from '../../api/live-log';
import type { Container, ContainerRequest } from '../../api/types';

const LABELS: Record<LogFile, string> = {
  'stdout.txt': 'stdout',
  'stderr.txt': 'stderr',
  'runner.txt': 'runner',
};

function LogPane({ text, name }: { text: string; name: string }) {
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return text === '' ? (
    <Text c="dimmed" size="sm" p="sm">
      Nothing yet.
    </Text>
  ) : (
    <Code
      block
      ref={box}
      tabIndex={0}
      aria-label={`${name} log`}
      data-testid={`log-${name}`}
      style={{ maxHeight: 420, overflow: 'auto', whiteSpace: 'pre-wrap' }}
    >
      {text}
    </Code>
  );
}

/** stdout, stderr and the runner's lines, following the container while it runs. */
export function LiveLog(props: { cr: ContainerRequest; container: Container | null }) {
  const { log, following } = useLiveLog(props.cr, props.container);
  return (
    <Tabs defaultValue="stdout.txt" keepMounted={false}>
      <Group justify="space-between">
        <Tabs.List aria-label="Log files">
          {LOG_FILES.map((f) => (
            <Tabs.Tab key={f} value={f}>
              {LABELS[f]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {following && (
          <Badge color="cyan" variant="dot">
            live
          </Badge>
        )}
      </Group>
      {LOG_FILES.map((f) => (
        <Tabs.Panel key={f} value={f} pt="xs">
          <LogPane text={log[f]} name={LABELS[f]} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
