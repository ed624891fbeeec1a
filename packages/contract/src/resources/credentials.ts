import { defineResource } from '../types';
import { commonAttributes } from './common';

/**
 * A secret that containers fetch at run time (an object store's access key, …). `secret` is
 * write-only: never a column of its own, never rendered, selected, filtered or logged; the
 * core seals it into a column that is no attribute.
 */
export const credentials = defineResource({
  type: 'credentials',
  singular: 'credential',
  kind: 'svc#credential',
  infix: 'oss07',
  description: 'A secret that containers use to reach an outside service for their user.',
  uniqueNamePerOwner: true,
  attributes: {
    ...commonAttributes,
    name: { type: 'string', required: true, maxLength: 255 },
    description: { type: 'text', nullable: true, default: null },
    credential_class: { type: 'string', required: true, description: 'What kind of secret' },
    scopes: {
      type: 'array',
      nullable: true,
      default: [],
      typeMessage: 'scopes must be an array of strings',
      description: 'What the credential may be used for',
    },
    external_id: { type: 'string', required: true, description: 'The public part' },
    secret: {
      type: 'string',
      required: true,
      stored: false,
      secret: true,
      input: 'hook',
      description: 'The secret part: write-only',
    },
    expires_at: {
      type: 'datetime',
      required: true,
      description: 'After this time the secret cannot be fetched',
    },
  },
});
