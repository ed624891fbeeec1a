import { apiClientAuthorizations, containers } from '../registry';
import { objectOf, op, plainJson } from './ops';
import { UUID } from './params';

const onContainer = <T>(
  name: string,
  httpMethod: 'GET' | 'POST',
  result: { schema: string | null; type?: T },
  description: string,
) =>
  op({
    httpMethod,
    path: `containers/{uuid}/${name}`,
    params: { uuid: UUID },
    result,
    routing: 'uuid',
    description,
  });

/**
 * The dispatch API of containers.md §12: what a scheduler needs beyond the common methods
 * (execution.md's dispatchers and runner use only these and the common methods).
 */
export const containerOps = {
  lock: onContainer(
    'lock',
    'POST',
    objectOf(containers),
    'Admins: take a Queued container with priority > 0 for running it (Queued → Locked).',
  ),
  unlock: onContainer(
    'unlock',
    'POST',
    objectOf(containers),
    'The token that locked it: give a Locked container back to the queue (Locked → Queued).',
  ),
  auth: onContainer(
    'auth',
    'GET',
    objectOf(apiClientAuthorizations),
    "The token that locked it: the container's own token, with its secret.",
  ),
  secret_mounts: onContainer(
    'secret_mounts',
    'GET',
    plainJson<{ secret_mounts: Record<string, unknown> }>(),
    "The container's own token: the container's secret_mounts.",
  ),
  current: op({
    httpMethod: 'GET',
    path: 'containers/current',
    params: {},
    result: objectOf(containers),
    routing: 'cluster_id',
    description: 'The container whose own token makes this call.',
  }),
};
