import type { Json } from '@svc/runner';
import { ContainerDispatch, type SvcClient } from '@svc/client';
import { defaultSettings, type RunnerInput } from '@svc/runner';
import type { Backend, RunnerRecord } from './backend';

type Container = Json;
/** Queued containers read per request, and at most per poll. */
const QUEUE_PAGE = 100;
const QUEUE_LIMIT = 1000;

export interface DispatcherOptions {
  backend: Backend;
  /** The dispatcher's own admin token. */
  client: SvcClient;
  pollInterval: number;
  /** Milliseconds between quick looks at the queue's top (0: none). Default 250. */
  quickInterval?: number;
  cacheDir: string;
  settings?: Partial<typeof defaultSettings> & Pick<RunnerInput, 'engine'>;
  insecure?: boolean;
  /** Why no container may be locked (sandbox missing), or null. */
  sandboxProblem?: string | null;
  log?: (line: string) => void;
}

/**
 * One dispatcher (execution.md §2): a client of the public API and the dispatch endpoints
 * only. Each poll reconciles the containers its token locked with the backend's runners,
 * stops runners of containers whose priority dropped to 0, then locks and starts queued
 * containers that fit, highest priority first. The queued containers a poll saw but had no
 * room for stay in hand: when the backend says room was freed (a command exited), the next
 * of them are locked and started at once, without listing anything (a lock fails for one
 * that changed meanwhile); a poll follows when the hand is empty and the queue had more.
 */
export class Dispatcher {
  private readonly api: ContainerDispatch;
  private tokenUuid = '';
  private timer: NodeJS.Timeout | null = null;
  private quickTimer: NodeJS.Timeout | null = null;
  /**
   * Queued containers the last poll or fill left waiting (no room), in queue order: room freed
   * between polls goes to them first, and a quick check skips them.
   */
  private inHand: Container[] = [];
  /** Whether the last listing of the queue ended with a full page (there may be more). */
  private queueMore = false;
  /** The running poll or fill, and what is asked of it next. */
  private ticking: Promise<void> | null = null;
  private wantPoll = false;
  private wantFill = false;
  private stopped = false;
  private readonly log: (line: string) => void;

  constructor(readonly opts: DispatcherOptions) {
    this.api = new ContainerDispatch(opts.client);
    this.log = opts.log ?? ((l) => process.stderr.write(`dispatcher: ${l}\n`));
  }

  private get client(): SvcClient {
    return this.opts.client;
  }

  async start(): Promise<void> {
    const me = await this.client.request('GET', '/svc/v1/api_client_authorizations/current', {
      retry: true,
    });
    if (me.status !== 200) throw new Error(`dispatcher token: ${me.status} ${me.text}`);
    this.tokenUuid = (me.body as Container)['uuid'];
    if (this.opts.sandboxProblem) this.log(`locks nothing: ${this.opts.sandboxProblem}`);
    else this.opts.backend.prepare?.();
    if (!this.opts.sandboxProblem) this.opts.backend.onRoom?.(() => this.fillSoon());
    await this.tick();
    this.schedule();
    this.scheduleQuick();
  }

  /**
   * Reacting sooner than PollInterval (execution.md §1 allows it): a cheap look at the top
   * of the queue every `quickInterval`; a container the last poll did not see waiting there
   * starts a poll at once.
   */
  private scheduleQuick(): void {
    // one cheap list request (logged at debug level when the queue is empty)
    const ms = this.opts.quickInterval ?? 250;
    if (this.stopped || ms <= 0 || this.opts.sandboxProblem) return;
    this.quickTimer = setTimeout(() => {
      void this.quickCheck()
        .catch(() => undefined)
        .finally(() => this.scheduleQuick());
    }, ms);
  }

  private async quickCheck(): Promise<void> {
    if (this.ticking) return;
    // runners ended: their tokens go, and the room goes to the containers in hand
    if (this.opts.backend.changed()) await this.fillSoon();
    const res = await this.client.request('GET', '/svc/v1/containers', {
      retry: true,
      query: {
        filters: [
          ['state', '=', 'Queued'],
          ['priority', '>', 0],
        ],
        order: ['priority desc', 'created_at asc'],
        select: ['uuid'],
        limit: 1,
        count: 'none',
      },
    });
    const top = (res.body as { items?: Container[] })?.items?.[0]?.['uuid'];
    if (res.status === 200 && top && !this.inHand.some((c) => c['uuid'] === top)) await this.tick();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.opts.pollInterval * 1000);
  }

  /** One poll; concurrent calls share it. */
  tick(): Promise<void> {
    this.wantPoll = true;
    return this.drive();
  }

  /** Room was freed: the containers in hand that fit start (polls and fills take turns). */
  private fillSoon(): Promise<void> {
    this.wantFill = true;
    return this.drive();
  }

  private drive(): Promise<void> {
    this.ticking ??= (async () => {
      while (this.wantPoll || (this.wantFill && !this.stopped)) {
        const poll = this.wantPoll;
        this.wantPoll = false;
        this.wantFill = false;
        await (poll ? this.poll() : this.fill()).catch((err) =>
          this.log(`${poll ? 'poll' : 'fill'} failed: ${(err as Error).message}`),
        );
      }
    })().finally(() => (this.ticking = null));
    return this.ticking;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.quickTimer) clearTimeout(this.quickTimer);
    await this.ticking;
    this.opts.backend.close?.();
  }

  private async list(
    filters: unknown[],
    order?: string[],
    page = { limit: 1000, offset: 0 },
  ): Promise<Container[]> {
    const res = await this.client.request('GET', '/svc/v1/containers', {
      retry: true,
      query: {
        filters,
        ...(order ? { order } : {}),
        ...page,
        count: 'none',
        select: [
          'uuid',
          'state',
          'priority',
          'runtime_constraints',
          'scheduling_parameters',
          'created_at',
        ],
      },
    });
    if (res.status !== 200) throw new Error(`listing containers: ${res.status} ${res.text}`);
    return (res.body as { items: Container[] }).items;
  }

  private update(uuid: string, attrs: Record<string, unknown>) {
    return this.client.request('PUT', `/svc/v1/containers/${uuid}`, {
      json: { container: attrs },
      retry: true,
    });
  }

  private async poll(): Promise<void> {
    const backend = this.opts.backend;
    let runners: Map<string, RunnerRecord>;
    try {
      runners = await backend.list();
    } catch (err) {
      // a backend that cannot be asked changes nothing; the next poll tries again
      this.log(`backend query failed: ${(err as Error).message}`);
      return;
    }
    const dropped = this.dropEnded();
    const mine = await this.list([
      ['locked_by_uuid', '=', this.tokenUuid],
      ['state', 'in', ['Locked', 'Running']],
    ]);
    const mineByUuid = new Map(mine.map((c) => [c['uuid'] as string, c]));
    for (const c of mine) {
      const runner = runners.get(c['uuid']);
      if (!runner) await this.orphan(c);
      else if (BigInt(c['priority']) <= 0n) await backend.stop(c['uuid']);
      else await backend.setPriority?.(c['uuid'], BigInt(c['priority']));
    }
    for (const uuid of runners.keys()) {
      if (!mineByUuid.has(uuid)) await backend.stop(uuid);
    }
    if (this.opts.sandboxProblem || this.stopped) return void (await dropped);
    const active = [...runners.values()].filter((r) => mineByUuid.has(r.uuid));
    const waiting: Container[] = [];
    // the queue a page at a time, the next one only while there is room: a long queue is not
    // listed whole at every poll (each runner that ends starts one)
    for (let offset = 0; offset < QUEUE_LIMIT; offset += QUEUE_PAGE) {
      const page = await this.list(
        [
          ['state', '=', 'Queued'],
          ['priority', '>', 0],
        ],
        ['priority desc', 'created_at asc'],
        { limit: QUEUE_PAGE, offset },
      );
      await this.place(page, active, waiting);
      this.queueMore = page.length === QUEUE_PAGE;
      if (page.length < QUEUE_PAGE || !backend.fitsNow(1, 0, active)) break;
    }
    this.inHand = waiting;
    await dropped;
  }

  /**
   * Room was freed since the last poll: the containers in hand that fit now are locked and
   * started, with no listing. Runners whose container is no longer this token's count as
   * running until a poll stops them.
   */
  private async fill(): Promise<void> {
    if (this.opts.sandboxProblem || this.stopped) return;
    const backend = this.opts.backend;
    const active = backend.known?.() ?? [...(await backend.list()).values()];
    const dropped = this.dropEnded();
    const waiting: Container[] = [];
    const queue = this.inHand;
    this.inHand = [];
    await this.place(queue, active, waiting);
    this.inHand = waiting;
    // the hand is empty and there is room: the queue's next page, at once
    if (waiting.length === 0 && this.queueMore && backend.fitsNow(1, 0, active)) {
      this.wantPoll = true;
    }
    await dropped;
  }

  /** Deletes the scoped tokens of runners that ended (at the same time as other work). */
  private dropEnded(): Promise<unknown> {
    return Promise.all(this.opts.backend.ended().map((r) => this.dropToken(r.recordTokenUuid)));
  }

  /**
   * Locks and starts the containers of `queue` that fit beside `active` (which grows); the
   * others go to `waiting`, in order.
   */
  private async place(
    queue: Container[],
    active: RunnerRecord[],
    waiting: Container[],
  ): Promise<void> {
    const backend = this.opts.backend;
    for (const c of queue) {
      if (this.stopped) {
        waiting.push(c);
        continue;
      }
      const vcpus = Number(c['runtime_constraints']?.['vcpus'] ?? 1);
      const ram = Number(c['runtime_constraints']?.['ram'] ?? 0);
      const never = backend.neverFits(vcpus, ram);
      if (never) {
        await this.update(c['uuid'], { state: 'Cancelled', runtime_status: { error: never } });
        continue;
      }
      if (!backend.fitsNow(vcpus, ram, active)) {
        waiting.push(c);
        continue;
      }
      const record = await this.launch(c, vcpus, ram);
      if (record) active.push(record);
    }
  }

  /** A container locked by this token with no runner (execution.md §2.5). */
  private async orphan(c: Container): Promise<void> {
    if (c['state'] === 'Locked' && BigInt(c['priority']) <= 0n) {
      // unlocking would requeue it: a cancelled Locked container ends here (§2.4)
      await this.update(c['uuid'], { state: 'Cancelled' });
    } else if (c['state'] === 'Locked') {
      await this.api.unlock(c['uuid']);
    } else {
      await this.update(c['uuid'], {
        state: 'Cancelled',
        runtime_status: { error: 'runner exited without finishing the container' },
      });
    }
  }

  /** Lock, then start exactly one runner; unlock when the start fails. */
  private async launch(c: Container, vcpus: number, ram: number): Promise<RunnerRecord | null> {
    const uuid: string = c['uuid'];
    const locked = await this.api.lock(uuid);
    if (locked.status !== 200) return null; // another dispatcher took it, or it changed
    let recordTokenUuid = '';
    try {
      // both tokens in one round trip
      const [auth, scoped] = await Promise.all([
        this.api.auth(uuid),
        this.client.request('POST', '/svc/v1/api_client_authorizations', {
          json: {
            api_client_authorization: {
              scopes: [`GET /svc/v1/containers/${uuid}`, `PATCH /svc/v1/containers/${uuid}`],
            },
          },
        }),
      ]);
      if (scoped.status === 200) recordTokenUuid = (scoped.body as Container)['uuid'];
      if (auth.status !== 200) throw new Error(`container token: ${auth.status} ${auth.text}`);
      if (scoped.status !== 200) throw new Error(`runner token: ${scoped.status} ${scoped.text}`);
      const own = auth.body as Container;
      const rec = scoped.body as Container;
      const input: RunnerInput = {
        apiHost: this.client.baseUrl,
        insecure: this.opts.insecure ?? false,
        containerToken: `v2/${own['uuid']}/${own['api_token']}`,
        recordToken: `v2/${rec['uuid']}/${rec['api_token']}`,
        cacheDir: this.opts.cacheDir,
        ...defaultSettings,
        ...this.opts.settings,
      };
      const record: RunnerRecord = { uuid, recordTokenUuid, vcpus, ram };
      await this.opts.backend.start(record, input, (locked.body as Container | null) ?? c);
      return record;
    } catch (err) {
      this.log(`cannot start ${uuid}: ${(err as Error).message}`);
      if (recordTokenUuid) await this.dropToken(recordTokenUuid);
      await this.api.unlock(uuid);
      return null;
    }
  }

  private async dropToken(uuid: string): Promise<void> {
    await this.client
      .request('DELETE', `/svc/v1/api_client_authorizations/${uuid}`, { retry: true })
      .catch(() => undefined);
  }
}
