import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAncestors } from '../api/ancestors';
import { pathOf } from '../api/ids';
import { useSignedIn } from '../api/session';

/** Where an object lives: its owners from the top, each a link; then the object itself. */
export function Crumbs({ ownerUuid, current }: { ownerUuid?: string; current: string }) {
  const { user } = useSignedIn();
  const chain = useAncestors(ownerUuid, user.uuid);
  return (
    <nav aria-label="Breadcrumbs">
      <Breadcrumbs separator="›">
        {(chain.data ?? []).map((c) => (
          <Anchor component={Link} to={pathOf(c.uuid) ?? '#'} key={c.uuid} size="sm">
            {c.label}
          </Anchor>
        ))}
        <Text size="sm" aria-current="page">
          {current}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
