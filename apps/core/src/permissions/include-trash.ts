import { convertParam } from '@svc/contract';
import type { Call } from '../call';

/** `include_trash=true`: hidden objects count as visible for this call (groups.md §6). */
export const includeTrash = (call: Call): boolean =>
  (convertParam('include_trash', 'boolean', call.params['include_trash']) as boolean | undefined) ??
  false;
