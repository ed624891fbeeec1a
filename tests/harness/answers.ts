/**
 * An answer as `[status, errors]`, and the contract's common refusals in that form, so that a
 * test states the whole expected answer in one assertion.
 */
export const answer = (res: { status: number; body: { errors?: unknown } }) => [
  res.status,
  res.body.errors,
];

/** permissions.md §8: "insufficient permission" on an object the caller can see. */
export const insufficient = (uuid: string) => [
  403,
  [`Forbidden: insufficient permission to modify ${uuid}`],
];
export const forbidden = [403, ['Forbidden']];
/** permissions.md §6: every create, update or delete by an inactive user. */
export const inactive = [403, ['Forbidden: user is not active']];
