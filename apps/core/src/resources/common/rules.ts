import type { ResourceSpec } from '@svc/contract';
import type { Sql } from '@svc/list-engine';
import type { AccessPolicy } from '../../permissions/policy';
import type { Call, Handler } from '../../call';
import type { Db } from '../../db/db';
import type { Row } from './row';

/** What a write hands the resource's own rules. */
export interface WriteContext {
  call: Call;
  tx: Db;
  /** The single "now" of this save (groups.md §6). */
  now: string;
  /** Client attributes after type checks, `hook` ones included, `ignored` ones dropped. */
  input: Readonly<Record<string, unknown>>;
}

/**
 * A resource's own rules, composed onto the generic create/get/update/delete/list.
 * Every hook is optional; a resource folder provides only what differs.
 */
export interface ResourceRules {
  readonly resource: ResourceSpec;
  /** Reference attributes whose existence this resource checks itself (e.g. remote users). */
  readonly ownReferenceRules?: readonly string[];
  /** Columns of the table that are not attributes (never rendered), written from the row. */
  readonly internalColumns?: readonly string[];
  /** Runs first in every common method (create, get, update, delete, list); throws 403. */
  guard?(call: Call): void;
  /** Who may see and change these objects: applied by every common method, never optional. */
  readonly policy: AccessPolicy;
  /**
   * Runs right after the permission checks of a create (`current` null) or update, before the
   * attributes are validated: checks whose errors must come before validation's.
   */
  checkWrite?(
    call: Call,
    tx: Db,
    attrs: Readonly<Record<string, unknown>>,
    current: Row | null,
  ): Promise<void>;
  /** Completes a new row: computed values, resource validation (throws 422). */
  prepareCreate?(ctx: WriteContext, row: Row): Promise<void>;
  /**
   * After prepareCreate: an existing object that answers this create instead (e.g. a duplicate
   * permission link); only its uuid is needed.
   */
  existingFor?(ctx: WriteContext, draft: Row): Promise<Row | null>;
  /** Attributes a caller may see of this row, when fewer than all (others' user records). */
  visibleAttributes?(call: Call, row: Row): ReadonlySet<string> | null;
  /** Completes the next version of a row; `current` is the stored one. */
  prepareUpdate?(ctx: WriteContext, current: Row, next: Row): Promise<void>;
  /** Runs in the same transaction after the row is written (links, permission table). */
  afterWrite?(ctx: WriteContext, row: Row, previous: Row | null): Promise<void>;
  /**
   * Like afterWrite, for rules whose consequences may change the row itself (a container
   * request finalized by its container's end): returns the row as it stands afterwards.
   */
  afterWriteRow?(ctx: WriteContext, row: Row, previous: Row | null): Promise<Row>;
  /** Replaces removal (groups and collections are trashed); returns the row to render. */
  remove?(call: Call, row: Row, tx: Db, now: string): Promise<Row>;
  /** Runs in the same transaction after a row is removed. */
  afterRemove?(call: Call, row: Row, tx: Db): Promise<void>;
  /**
   * Columns read with the rows a get or list renders, so that rendering needs no second query
   * (the caller's level on each row, …); `table` qualifies the row's columns.
   */
  renderColumns?(call: Call, table: string, select: readonly string[] | null): Sql[];
  /** Loads what computeAttribute needs for a batch of rows about to be rendered. */
  beforeRender?(call: Call, rows: readonly Row[]): Promise<void>;
  /** Values of attributes that are neither stored nor computed in SQL. */
  computeAttribute?(call: Call, name: string, row: Row): unknown;
  /** Operations beyond the common ones, by endpoint name (`current`, `system`, …). */
  extraHandlers?: Readonly<Record<string, Handler>>;
}
