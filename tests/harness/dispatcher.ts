import { ContainerDispatch, type SvcClient } from '@svc/client';
import type { TestDeployment } from './deployment';
import { makeCollection } from './containers';
import { makeUser } from './users';

/**
 * A test dispatcher: an admin with a token of its own that drives containers through their
 * states over HTTP only, with the dispatch API of containers.md §12, as a real scheduler
 * would (execution.md §2): queue, lock, the container's own token, Running, then Complete or
 * Cancelled with log and output collections saved by the container's token.
 */
export class TestDispatcher {
  private constructor(
    readonly d: TestDeployment,
    /** The dispatcher's own admin token. */
    readonly client: SvcClient,
    readonly tokenUuid: string,
    readonly api: ContainerDispatch,
  ) {}

  static async start(d: TestDeployment): Promise<TestDispatcher> {
    const admin = await makeUser(d, { is_admin: true });
    return new TestDispatcher(
      d,
      admin.client,
      admin.tokenUuid,
      new ContainerDispatch(admin.client),
    );
  }

  /** Queued containers with priority > 0, highest priority first, then oldest (execution.md §2). */
  async queue(): Promise<Record<string, any>[]> {
    const res = await this.client.request('GET', '/svc/v1/containers', {
      query: {
        filters: [
          ['state', '=', 'Queued'],
          ['priority', '>', 0],
        ],
        order: ['priority desc', 'created_at asc'],
        limit: 1000,
      },
    });
    if (res.status !== 200) throw new Error(`queue: ${res.text}`);
    return res.body.items;
  }

  private async ok<T>(what: string, p: Promise<{ status: number; body: T; text: string }>) {
    const res = await p;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  }

  lock(uuid: string) {
    return this.ok('lock', this.api.lock(uuid));
  }

  /** The container's own token, as a runner gets it (v2 form). */
  async ownToken(uuid: string): Promise<string> {
    const record = (await this.ok('auth', this.api.auth(uuid))) as Record<string, any>;
    return `v2/${record.uuid}/${record.api_token}`;
  }

  update(uuid: string, attrs: Record<string, unknown>) {
    return this.client.request('PUT', `/svc/v1/containers/${uuid}`, { json: { container: attrs } });
  }

  /** Lock, then Running (the runner's image is ready). Answers the container's own token. */
  async start(uuid: string, attrs: Record<string, unknown> = {}): Promise<string> {
    await this.lock(uuid);
    const token = await this.ownToken(uuid);
    await this.ok('run', this.update(uuid, { state: 'Running', ...attrs }));
    return token;
  }

  /** Log and output collections saved with the container's token (owned by its runtime user). */
  async saveCollections(token: string): Promise<{ log: string; output: string }> {
    const runner = this.d.client(token);
    const log = await makeCollection(runner, { properties: { type: 'log' } });
    const output = await makeCollection(runner, { properties: { type: 'output' } });
    return { log: log.pdh, output: output.pdh };
  }

  /** Runs a Queued container to Complete with `exit_code` (log and output saved). */
  async complete(uuid: string, exitCode = 0, attrs: Record<string, unknown> = {}) {
    const token = await this.start(uuid);
    const saved = await this.saveCollections(token);
    return this.ok(
      'complete',
      this.update(uuid, { state: 'Complete', exit_code: exitCode, ...saved, ...attrs }),
    ) as Promise<Record<string, any>>;
  }

  /** Ends a container as Cancelled by an admin update, from whatever state it is in. */
  cancel(uuid: string, attrs: Record<string, unknown> = {}) {
    return this.ok('cancel', this.update(uuid, { state: 'Cancelled', ...attrs })) as Promise<
      Record<string, any>
    >;
  }

  /** Runs every queued container to completion, highest priority first; answers their uuids. */
  async drainQueue(exitCode = 0): Promise<string[]> {
    const done: string[] = [];
    for (const c of await this.queue()) {
      await this.complete(c.uuid, exitCode);
      done.push(c.uuid);
    }
    return done;
  }
}
