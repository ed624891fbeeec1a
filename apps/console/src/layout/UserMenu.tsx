import { Avatar, Button, Menu, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useSignedIn } from '../api/session';
import { TokenDialog } from './TokenDialog';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/** Who you are, the API token dialog, and signing out. */
export function UserMenu() {
  const { user, signOut } = useSignedIn();
  const navigate = useNavigate();
  const [tokenOpen, token] = useDisclosure(false);
  const name = user.full_name || user.username || user.email || user.uuid;
  return (
    <>
      <Menu position="bottom-end" width={280}>
        <Menu.Target>
          <Button
            variant="subtle"
            leftSection={
              <Avatar size="sm" color="blue" aria-hidden>
                {initials(name) || '?'}
              </Avatar>
            }
          >
            {name}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Signed in as</Menu.Label>
          <div style={{ padding: '0 12px 8px' }}>
            <Text size="sm" fw={600}>
              {name}
            </Text>
            {user.email && (
              <Text size="xs" c="dimmed">
                {user.email}
              </Text>
            )}
            <Text size="xs" c="dimmed" ff="monospace">
              {user.uuid}
            </Text>
          </div>
          <Menu.Divider />
          <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={token.open}>
            API token
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() => void signOut().then(() => navigate('/sign-in'))}
          >
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <TokenDialog opened={tokenOpen} onClose={token.close} />
    </>
  );
}
