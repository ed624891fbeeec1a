import { Divider, NavLink } from '@mantine/core';
import {
  IconHome,
  IconPlayerPlay,
  IconShare,
  IconSettings,
  IconTrash,
  IconUsersGroup,
  IconCpu,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useSignedIn } from '../api/session';

/** Home, Shared with me, Trash; processes, run, groups; admin for admins. */
export function NavSidebar() {
  const { user } = useSignedIn();
  const { pathname } = useLocation();
  const item = (to: string, label: string, icon: React.ReactNode, active = pathname === to) => (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={active}
      aria-current={active ? 'page' : undefined}
    />
  );
  return (
    <>
      {item(`/projects/${user.uuid}`, 'Home', <IconHome size={18} aria-hidden />)}
      {item('/shared', 'Shared with me', <IconShare size={18} aria-hidden />)}
      {item('/trash', 'Trash', <IconTrash size={18} aria-hidden />)}
      <Divider my="sm" />
      {item('/processes', 'Processes', <IconCpu size={18} aria-hidden />)}
      {item('/run', 'Run a process', <IconPlayerPlay size={18} aria-hidden />)}
      {item(
        '/groups',
        'Groups',
        <IconUsersGroup size={18} aria-hidden />,
        pathname.startsWith('/groups'),
      )}
      {user.is_admin && (
        <>
          <Divider my="sm" label="Admin" labelPosition="left" />
          {item('/admin/users', 'Users', <IconSettings size={18} aria-hidden />)}
        </>
      )}
    </>
  );
}
