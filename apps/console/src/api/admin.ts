import type { SvcClient } from './client';

/**
 * Activating and deactivating users, in one place. Activation is `users.activate` (it refuses
 * while the user has unsigned user agreements, with the server's message). Deactivation is
 * `users.unsetup`: the user leaves all users and loses its permission links, tokens and SSH
 * keys, and is no longer active or admin; its objects stay.
 */
export const activateUser = (client: SvcClient, uuid: string) =>
  client.api.users.activate({ uuid });

export const deactivateUser = (client: SvcClient, uuid: string) =>
  client.api.users.unsetup({ uuid });
