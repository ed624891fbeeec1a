import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { prefetchProject } from '../api/prefetch';
import { RequireSession } from '../layout/RequireSession';
import { RouteError } from '../ui/RouteError';

/** A page loaded on first visit, so the first load carries only the shell. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  { path: '/sign-in', lazy: page(() => import('../pages/SignInPage')) },
  { path: '/token', lazy: page(() => import('../pages/TokenLanding')) },
  {
    element: <RequireSession />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: page(() => import('../pages/HomeRedirect')) },
      {
        path: 'projects/:uuid',
        loader: ({ params }) => prefetchProject(params['uuid']),
        lazy: page(() => import('../pages/project/ProjectPage')),
      },
      { path: 'shared', lazy: page(() => import('../pages/SharedPage')) },
      { path: 'trash', lazy: page(() => import('../pages/TrashPage')) },
      { path: 'collections/:id', lazy: page(() => import('../pages/collection/CollectionPage')) },
      { path: 'processes', lazy: page(() => import('../pages/process/ProcessesPage')) },
      { path: 'processes/:uuid', lazy: page(() => import('../pages/process/ProcessPage')) },
      { path: 'workflows/:uuid', lazy: page(() => import('../pages/WorkflowPage')) },
      { path: 'run', lazy: page(() => import('../pages/run/RunPage')) },
      { path: 'search', lazy: page(() => import('../pages/SearchPage')) },
      { path: 'groups', lazy: page(() => import('../pages/groups/GroupsPage')) },
      { path: 'groups/:uuid', lazy: page(() => import('../pages/groups/GroupPage')) },
      { path: 'clusters/:id', lazy: page(() => import('../pages/ClusterPage')) },
      { path: 'admin/users', lazy: page(() => import('../pages/admin/UsersPage')) },
      { path: '*', lazy: page(() => import('../pages/NotFoundPage')) },
    ],
  },
]);
