import { apiClientAuthorizations, containers } from '../registry';
import { objectOf, op, plainJson } from './ops';
import { query, UUID } from './params';

/** A provenance or use graph: keys (uuids, PDHs) to objects (docs/api/more-resources.md §8). */
export type ObjectGraph = Record<string, Record<string, unknown>>;

/** A tag or value of the properties vocabulary (docs/api/more-resources.md §13.1). */
export interface VocabularyEntry {
  strict?: boolean;
  labels: { label: string }[] | null;
  values?: Record<string, { labels: { label: string }[] | null }> | null;
}

export interface Vocabulary {
  kind: 'svc#vocabulary';
  strict_tags: boolean;
  tags: Record<string, VocabularyEntry>;
}

const onCollection = (name: 'provenance' | 'used_by', description: string) =>
  op({
    httpMethod: 'GET',
    path: `collections/{uuid}/${name}`,
    params: { uuid: UUID },
    result: plainJson<ObjectGraph>(),
    routing: 'uuid',
    description,
  });

export const createSystemAuthOp = op({
  httpMethod: 'POST',
  path: 'api_client_authorizations/create_system_auth',
  params: { scopes: query('array', 'Scopes of the new token', '["all"]') },
  result: objectOf(apiClientAuthorizations),
  routing: 'local',
  description: 'Admins with a trusted client: a new token of the system user.',
});

export const provenanceOps = {
  provenance: onCollection('provenance', 'Where a collection came from: the objects that made it.'),
  used_by: onCollection('used_by', 'What used a collection: the objects that read it.'),
};

export const containerStatusOp = op({
  httpMethod: 'GET',
  path: 'container_requests/{uuid}/container_status',
  params: { uuid: UUID },
  result: plainJson<{
    kind: 'svc#containerStatus';
    uuid: string;
    container_state: string;
    scheduling_status: string;
  }>(),
  routing: 'uuid',
  description: "The state of a request's container and why it waits.",
});

export const updatePriorityOp = op({
  httpMethod: 'POST',
  path: 'containers/{uuid}/update_priority',
  params: { uuid: UUID },
  result: objectOf(containers),
  routing: 'uuid',
  description: 'Recompute the priority of a container and its descendants.',
});

/** `POST /svc/v1/sys/trash_sweep` (also served at `/sys/trash_sweep`). */
export const sysOps = {
  get: op({
    id: 'svc.sys.trash_sweep',
    httpMethod: 'POST',
    path: 'sys/trash_sweep',
    params: {},
    result: plainJson<null>(),
    noContent: true,
    routing: 'local',
    description: 'Admins: run one pass of the trash sweep now; answers 204 when it is done.',
  }),
};

export const vocabularyOps = {
  get: op({
    httpMethod: 'GET',
    path: 'vocabulary',
    params: {},
    result: plainJson<Vocabulary>(),
    public: true,
    routing: 'local',
    description: 'The properties vocabulary: allowed keys and values, with their labels.',
  }),
};
