import type { ParamSpec } from './params';

/**
 * The dispatch API of containers.md §12: what a scheduler needs beyond the common methods
 * (execution.md's dispatchers and runner use only these and the common methods). Concatenated
 * into the endpoint table by endpoints.ts; shaped like its entries.
 */

const uuid: ParamSpec = {
  type: 'string',
  location: 'path',
  required: true,
  description: 'The container uuid',
};

const onContainer = (
  name: string,
  httpMethod: 'GET' | 'POST',
  response: string | null,
  description: string,
) =>
  ({
    resource: 'containers',
    name,
    httpMethod,
    methods: [httpMethod],
    path: `containers/{uuid}/${name}`,
    params: { uuid },
    response,
    routing: 'uuid',
    description,
  }) as const;

export const CONTAINER_ENDPOINTS = [
  onContainer(
    'lock',
    'POST',
    'Container',
    'Admins: take a Queued container with priority > 0 for running it (Queued → Locked).',
  ),
  onContainer(
    'unlock',
    'POST',
    'Container',
    'The token that locked it: give a Locked container back to the queue (Locked → Queued).',
  ),
  onContainer(
    'auth',
    'GET',
    'ApiClientAuthorization',
    "The token that locked it: the container's own token, with its secret.",
  ),
  onContainer(
    'secret_mounts',
    'GET',
    null,
    "The container's own token: the container's secret_mounts.",
  ),
  {
    resource: 'containers',
    name: 'current',
    httpMethod: 'GET',
    methods: ['GET'],
    path: 'containers/current',
    params: {},
    response: 'Container',
    routing: 'cluster_id',
    description: 'The container whose own token makes this call.',
  },
] as const;
