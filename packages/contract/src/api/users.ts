import { apiClientAuthorizations, users } from '../registry';
import type { ApiObject } from '../types';
import { bodyFields, objectOf, op, plainJson } from './ops';
import { query, requiredQuery, UUID } from './params';

/** `{"kind": "svc#HashList", "items": [...]}`: objects of several kinds, or plain items. */
export interface HashList<T = Record<string, unknown>> {
  kind: 'svc#HashList';
  items: T[];
}

const onUser = (name: string, description: string) =>
  op({
    httpMethod: 'POST',
    path: `users/{uuid}/${name}`,
    params: { uuid: UUID },
    result: objectOf(users),
    routing: 'local',
    description,
  });

/** Users' operations beyond the standard five (other-resources.md §5, docs/api/more-resources.md §5). */
export const userOps = {
  current: op({
    httpMethod: 'GET',
    path: 'users/current',
    params: {},
    result: objectOf(users),
    routing: 'cluster_id',
    description: "The caller's own user record.",
  }),
  system: op({
    httpMethod: 'GET',
    path: 'users/system',
    params: {},
    result: objectOf(users),
    routing: 'cluster_id',
    description: 'The system user.',
  }),
  authenticate: op({
    httpMethod: 'POST',
    path: 'users/authenticate',
    params: {},
    body: bodyFields<{ username: string; password: string }>({
      required: true,
      properties: { username: { type: 'string' }, password: { type: 'string' } },
    }),
    result: objectOf(apiClientAuthorizations),
    public: true,
    servedBy: 'gateway',
    routing: 'local',
    description: 'Log in with a username and password checked by the login provider.',
  }),
  activate: onUser('activate', 'Activate a user who is invited and signed every user agreement.'),
  setup: op({
    httpMethod: 'POST',
    path: 'users/setup',
    params: {
      uuid: query('string', 'An existing user to set up'),
      user: query('object', 'Attributes of a new user to create and set up'),
      repo_name: query('string', 'Accepted and ignored'),
      vm_uuid: query('string', 'A virtual machine to give the user a login on'),
      send_notification_email: query('boolean', 'Send the welcome email', 'false'),
    },
    result: plainJson<HashList>(),
    routing: 'local',
    description: 'Admins: give a user membership of all users and a shell login.',
  }),
  unsetup: onUser('unsetup', 'Admins: take a user out of the cluster (links, tokens, keys).'),
  merge: op({
    httpMethod: 'POST',
    path: 'users/merge',
    params: {
      new_owner_uuid: requiredQuery('string', "Where the old user's objects go"),
      new_user_token: query('string', 'A token of the new user (self form)'),
      redirect_to_new_user: query(
        'boolean',
        'Make the old account an alias of the new one',
        'false',
      ),
      old_user_uuid: query('string', 'Admins: the user to merge'),
      new_user_uuid: query('string', 'Admins: the user to merge into'),
    },
    result: objectOf(users),
    routing: 'local',
    description: "Move one user's objects, tokens and permissions to another user.",
  }),
};

export type UserObject = ApiObject<typeof users>;
