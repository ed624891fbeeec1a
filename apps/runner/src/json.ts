/**
 * A JSON object as the API answers it: records and configuration are read field by field,
 * checked where they are used.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
