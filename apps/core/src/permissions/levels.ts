/** Permission levels (permissions.md §1): each includes the lower ones. */
export const NONE = 0;
export const READ = 1;
export const WRITE = 2;
export const MANAGE = 3;

export type Level = typeof NONE | typeof READ | typeof WRITE | typeof MANAGE;

/** A permission link's level by name; `can_login` counts as reading. */
export function levelOfLinkName(name: unknown): Level {
  switch (name) {
    case 'can_manage':
      return MANAGE;
    case 'can_write':
      return WRITE;
    case 'can_read':
    case 'can_login':
      return READ;
    default:
      return NONE;
  }
}

export const PERMISSION_NAMES = ['can_read', 'can_write', 'can_manage', 'can_login'] as const;
