/**
 * Random small permission graphs for the property test of the permission model
 * (tests/http/permissions-property.test.ts), by concern:
 *  - spec.ts: what a graph and its changes are, as fast-check arbitraries;
 *  - model.ts: the graph as built, which the oracle (../permission-oracle.ts) reads;
 *  - calls.ts: the API calls that change it, logged and their statuses checked;
 *  - build.ts, apply.ts: making the graph and changing it through the API;
 *  - check.ts: comparing what users see with the oracle, and the materialized table with a
 *    full recomputation (database.ts, which also removes a finished graph);
 *  - report.ts: the failure report, with short names.
 */
import type { Db } from '../../../apps/core/src/db/db';
import type { TestDeployment } from '../deployment';
import { applyChange } from './apply';
import { buildGraph } from './build';
import { GraphCalls } from './calls';
import { checkGraph } from './check';
import { GraphModel } from './model';
import type { Change, GraphSpec } from './spec';

export { PermissionCheckFailure } from './calls';
export { materializedDiff, removeGraph } from './database';
export { changeArb, graphSpecArb } from './spec';
export type { Change, GraphSpec, LinkLevel, LinkSpec, SpecSizes } from './spec';

/** One random graph in a running deployment: its objects, a model of them, and a call log. */
export class GraphRun {
  readonly model: GraphModel;
  private readonly calls: GraphCalls;

  constructor(d: TestDeployment, clusterId = d.home.id) {
    this.model = new GraphModel(clusterId);
    this.calls = new GraphCalls(this.model, d.root);
  }

  get stats() {
    return this.calls.stats;
  }

  /** The API calls that changed something, for the report. */
  get log(): readonly string[] {
    return this.calls.log;
  }

  build(spec: GraphSpec): Promise<void> {
    return buildGraph(this.model, this.calls, spec);
  }

  /** Applies one change; false when the graph has nothing it could apply to. */
  apply(change: Change): Promise<boolean> {
    return applyChange(this.model, this.calls, change);
  }

  /** Compares what every non-admin user of the graph sees with the oracle, and the table. */
  check(db: Db | null, includeTrash = false): Promise<void> {
    return checkGraph(this.model, this.calls, db, includeTrash);
  }

  /** The objects, the call log and the problems, with short names. */
  report(problems: string[]): string {
    return this.calls.report(problems);
  }

  /** Every uuid this graph made. */
  uuids(): string[] {
    return this.model.uuids();
  }
}
