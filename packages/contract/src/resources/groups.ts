import { defineResource } from '../types';
import { commonAttributes, permissionFlagAttributes, trashAttributes } from './common';

export const groups = defineResource({
  type: 'groups',
  singular: 'group',
  kind: 'svc#group',
  infix: 'j7d0g',
  description: 'A project, a filter-defined virtual project, or a role.',
  uniqueNamePerOwner: true,
  trashable: true,
  attributes: {
    ...commonAttributes,
    name: { type: 'string', nullable: true, maxLength: 255, description: 'Defaults to the uuid' },
    group_class: { type: 'string', description: 'project, filter or role' },
    description: { type: 'text', nullable: true, default: null },
    properties: { type: 'hash', default: {} },
    ...trashAttributes,
    frozen_by_uuid: { type: 'string', nullable: true, default: null },
    ...permissionFlagAttributes,
  },
});
