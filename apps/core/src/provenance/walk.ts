import { collections, containerRequests, containers, isUuidOf } from '@svc/contract';
import { join, raw, sql, type Sql } from '@svc/list-engine';
import type { Call } from '../call';
import { collectionRules } from '../resources/collections/rules';
import { renderAll } from '../resources/common/crud';
import type { Row } from '../resources/common/row';
import { containerRequestRules } from '../resources/container-requests/rules';
import { containerRules } from '../resources/containers/rules';
import { linkRules } from '../resources/links/rules';
import {
  barePdh,
  collectionsWithPdh,
  COLLECTION_UUID_RE,
  EMPTY_PDH,
  PDH_RE,
  readableObject,
  readableRows,
} from './objects';

export type Direction = 'up' | 'down';

/** The first PDH of a string, else its first collection uuid (docs/api/more-resources.md §8). */
function referenceIn(s: string): string | null {
  return PDH_RE.exec(s)?.[0] ?? COLLECTION_UUID_RE.exec(s)?.[0] ?? null;
}

/** Every string value inside an object's attributes (not hash keys), but the excluded ones. */
export function referencesOf(object: Row, excluded: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      const ref = referenceIn(v);
      if (ref) out.push(ref);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  for (const [name, value] of Object.entries(object)) if (!excluded.includes(name)) visit(value);
  return out;
}

/** Attributes of a container that may mention a collection it reads (`used_by`). */
const MENTIONS = [
  'command',
  'cwd',
  'environment',
  'mounts',
  'output_path',
  'runtime_constraints',
  'scheduling_parameters',
  'runtime_status',
  'output_properties',
];
const mentions = (pdh: string): Sql =>
  sql`(${join(
    MENTIONS.map((c) => sql`strpos(${raw(`"${c}"`)}::text, ${pdh}) > 0`),
    ' OR ',
  )})`;

/**
 * One provenance (`up`) or use (`down`) walk from a collection or PDH, over what the caller can
 * read, each key visited once: the graph of docs/api/more-resources.md §8 as `key → object`.
 */
export class Walk {
  readonly graph: Record<string, Row> = {};
  private readonly visited = new Set<string>();

  constructor(
    private readonly call: Call,
    private readonly direction: Direction,
  ) {}

  async visit(id: string): Promise<void> {
    const key = PDH_RE.test(id) ? barePdh(id) : id;
    if (this.visited.has(key)) return;
    this.visited.add(key);
    const next = PDH_RE.test(key) ? await this.pdh(key) : await this.object(key);
    for (const n of next) await this.visit(n);
    for (const n of await this.provenanceLinks(key)) await this.visit(n);
  }

  /** E(P): the one readable collection with P, or a summary of several. */
  private async pdh(p: string): Promise<string[]> {
    const found = await collectionsWithPdh(this.call, p);
    if (found.length === 1) this.graph[p] = found[0]!;
    else if (found.length > 1) {
      const named = found.find((c) => typeof c['name'] === 'string' && c['name'] !== '');
      const name = named ? `${String(named['name'])} + ${found.length - 1} more` : p;
      this.graph[p] = { portable_data_hash: p, name };
    }
    if (this.direction === 'down' && p === EMPTY_PDH) return [];
    const where =
      this.direction === 'up'
        ? sql`(output = ${p} OR log = ${p})`
        : sql`(output IS DISTINCT FROM ${p} AND log IS DISTINCT FROM ${p} AND ${mentions(p)})`;
    const rows = await readableRows(this.call, containerRules, where);
    return rows.map((r) => String(r['uuid']));
  }

  private async object(uuid: string): Promise<string[]> {
    if (this.direction === 'down' && isUuidOf(collections, uuid)) {
      const [row] = await readableRows(this.call, collectionRules, sql`uuid = ${uuid}`);
      return row ? [String(row['portable_data_hash'])] : [];
    }
    const object = await readableObject(this.call, uuid);
    if (!object) return [];
    this.graph[uuid] = object;
    if (isUuidOf(containers, uuid)) {
      if (this.direction === 'down') return object['output'] ? [String(object['output'])] : [];
      return referencesOf(object, ['log', 'output']);
    }
    if (isUuidOf(containerRequests, uuid)) {
      if (this.direction === 'down')
        return object['output_uuid'] ? [String(object['output_uuid'])] : [];
      return referencesOf(object, ['log_uuid', 'output_uuid']);
    }
    if (isUuidOf(collections, uuid) && this.direction === 'up') {
      const rows = await readableRows(
        this.call,
        containerRequestRules,
        sql`(output_uuid = ${uuid} OR log_uuid = ${uuid})`,
      );
      return rows.map((r) => String(r['uuid']));
    }
    return [];
  }

  /** Readable `provenance` links into (up) or out of (down) the key: added, and followed. */
  private async provenanceLinks(key: string): Promise<string[]> {
    const end = this.direction === 'up' ? sql`head_uuid = ${key}` : sql`tail_uuid = ${key}`;
    const rows = await readableRows(
      this.call,
      linkRules,
      sql`link_class = 'provenance' AND ${end}`,
    );
    const rendered = await renderAll(this.call, linkRules, rows, null, false);
    rendered.forEach((link) => (this.graph[String(link['uuid'])] = link as Row));
    return rows
      .map((r) => r[this.direction === 'up' ? 'tail_uuid' : 'head_uuid'])
      .filter((u): u is string => typeof u === 'string');
  }
}
