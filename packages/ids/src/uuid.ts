import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
export const CLUSTER_ID_RE = /^[0-9a-z]{5}$/;
export const UUID_RE = /^([0-9a-z]{5})-([0-9a-z]{5})-([0-9a-z]{15})$/;

/** `n` characters of `[0-9a-z]`, from a cryptographic source. */
export function randomAlnum(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function makeUuid(clusterId: string, infix: string, rest: string = randomAlnum(15)): string {
  return `${clusterId}-${infix}-${rest}`;
}

export interface ParsedUuid {
  cluster: string;
  infix: string;
  rest: string;
}

export function parseUuid(value: unknown): ParsedUuid | null {
  if (typeof value !== 'string') return null;
  const m = UUID_RE.exec(value);
  if (!m) return null;
  return { cluster: m[1]!, infix: m[2]!, rest: m[3]! };
}

export const isUuid = (value: unknown): value is string => parseUuid(value) !== null;

/** Cluster id of something that looks like a uuid (27 chars, two hyphens), else null. */
export function clusterOf(value: string): string | null {
  return parseUuid(value)?.cluster ?? null;
}
