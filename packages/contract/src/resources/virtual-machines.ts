import { defineResource } from '../types';
import { commonAttributes } from './common';

export const virtualMachines = defineResource({
  type: 'virtual_machines',
  singular: 'virtual_machine',
  kind: 'svc#virtualMachine',
  infix: '2x53u',
  description: 'A shell node: a host where users log in with SSH.',
  attributes: {
    ...commonAttributes,
    hostname: { type: 'string', nullable: true, default: null },
  },
});
