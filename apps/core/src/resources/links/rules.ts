import { links } from '@svc/contract';
import type { ResourceRules } from '../common/rules';

export const linkRules: ResourceRules = {
  resource: links,
};
