import { Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { ClusterSwitcher } from './ClusterSwitcher';
import { NavSidebar } from './NavSidebar';
import { SearchBox } from './SearchBox';
import classes from './Shell.module.css';
import { UserMenu } from './UserMenu';

/** Header (search, clusters, user), the sidebar, and the page. */
export function Shell() {
  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Link to="/" className={classes.brand}>
          svc console
        </Link>
        <div className={classes.search}>
          <SearchBox />
        </div>
        <Group gap="sm" ml="auto" wrap="nowrap">
          <ClusterSwitcher />
          <UserMenu />
        </Group>
      </header>
      <nav className={classes.nav} aria-label="Main">
        <NavSidebar />
      </nav>
      <main className={classes.main}>
        <Outlet />
      </main>
    </div>
  );
}
