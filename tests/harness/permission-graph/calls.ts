/**
 * The graph's API calls that change something: each is logged with its answer (for the report)
 * and its status checked against the one the model expects.
 */
import type { Answer, SvcClient } from '@svc/client';
import type { GraphModel, GUser } from './model';
import { graphReport } from './report';

export class PermissionCheckFailure extends Error {}

export interface Caller {
  name: string;
  client: SvcClient;
}

export class GraphCalls {
  /** The API calls that changed something, for the report. */
  readonly log: string[] = [];
  readonly stats = { requests: 0, checks: 0, checkMs: 0, dbMs: 0 };

  constructor(
    private readonly model: GraphModel,
    readonly root: SvcClient,
  ) {}

  asRoot(): Caller {
    return { name: 'root', client: this.root };
  }

  asUser(u: GUser): Caller {
    return { name: u.name, client: u.client };
  }

  /** The report of the graph so far, with these problems. */
  report(problems: string[]): string {
    return graphReport(this.model, this.log, problems);
  }

  private describeCall(
    who: string,
    method: string,
    path: string,
    query: Record<string, unknown> | undefined,
    json: unknown,
  ): string {
    const q =
      query && Object.keys(query).length > 0
        ? `?${new URLSearchParams(query as Record<string, string>)}`
        : '';
    const body = json === undefined ? '' : ` ${JSON.stringify(json)}`;
    return this.model.symbolic(`${who}: ${method} ${path}${q}${body}`);
  }

  /** A call that changes something: logged with its answer, its status checked. */
  async change(
    who: Caller,
    method: string,
    path: string,
    opts: { query?: Record<string, unknown>; json?: unknown },
    expected: number,
  ): Promise<Answer<any>> {
    const line = this.describeCall(who.name, method, path, opts.query, opts.json);
    // The log keeps the order in which calls were issued (builds issue some at once).
    const slot = this.log.push(`${line} -> (no answer)`) - 1;
    const res = await who.client.request(method, path, opts);
    this.stats.requests += 1;
    this.log[slot] = `${line} -> ${res.status}`;
    if (res.status !== expected) {
      throw new PermissionCheckFailure(
        this.report([
          `${line}: expected status ${expected}, got ${res.status} ${this.model.symbolic(res.text.slice(0, 300))}`,
        ]),
      );
    }
    return res;
  }

  /** The answer of the last logged call must carry `value` in `field`. */
  expectField(res: Answer<any>, field: string, value: unknown): void {
    if (res.body?.[field] !== value) {
      throw new PermissionCheckFailure(
        this.report([
          `${this.log.at(-1)}: expected ${field} ${JSON.stringify(value)}, got ${this.model.symbolic(JSON.stringify(res.body?.[field]))}`,
        ]),
      );
    }
  }
}
