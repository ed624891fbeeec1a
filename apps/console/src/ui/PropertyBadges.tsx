import { Badge, Group } from '@mantine/core';

/** An object's properties as `key: value` badges. */
export function PropertyBadges({ properties }: { properties?: Record<string, unknown> | null }) {
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return null;
  return (
    <Group gap={6} aria-label="Properties">
      {entries.map(([k, v]) => (
        <Badge key={k} variant="light" color="gray" tt="none">
          {k}: {typeof v === 'string' ? v : JSON.stringify(v)}
        </Badge>
      ))}
    </Group>
  );
}
