import { Badge, Button, Menu } from '@mantine/core';
import { IconChevronDown, IconWorld } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useSession } from '../api/session';

/** The home cluster and every remote cluster of the configuration, each with its own page. */
export function ClusterSwitcher() {
  const { config } = useSession();
  const navigate = useNavigate();
  if (!config) return null;
  const remotes = Object.keys(config.RemoteClusters ?? {}).sort();
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconWorld size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`Cluster ${config.ClusterID}`}
        >
          {config.ClusterID}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Home cluster</Menu.Label>
        <Menu.Item onClick={() => navigate(`/clusters/${config.ClusterID}`)}>
          {config.ClusterID}{' '}
          <Badge size="xs" variant="light" ml={4}>
            home
          </Badge>
        </Menu.Item>
        <Menu.Label>Remote clusters</Menu.Label>
        {remotes.length === 0 && <Menu.Item disabled>None configured</Menu.Item>}
        {remotes.map((id) => (
          <Menu.Item key={id} onClick={() => navigate(`/clusters/${id}`)}>
            {id}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
