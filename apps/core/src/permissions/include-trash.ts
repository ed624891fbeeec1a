import { flagOption, type Call } from '../call';

/** `include_trash=true`: hidden objects count as visible for this call (groups.md §6). */
export const includeTrash = (call: Call): boolean => flagOption(call, 'include_trash');
