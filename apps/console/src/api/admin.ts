import type { SvcClient } from './client';

/**
 * Activating and deactivating users, in one place. The API has no `users.activate` or
 * `users.unsetup` yet, so an admin sets `is_active` with an update; when those methods exist,
 * only these two functions change.
 */
export const activateUser = (client: SvcClient, uuid: string) =>
  client.api.users.update({ uuid, attributes: { is_active: true } });

export const deactivateUser = (client: SvcClient, uuid: string) =>
  client.api.users.update({ uuid, attributes: { is_active: false } });
