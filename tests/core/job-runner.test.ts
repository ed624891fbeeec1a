import pino from 'pino';
import { validateConfig } from '@svc/config';
import { JobRunner, openDatabase, type Db, type Job } from '@svc/core';
import { createClusterDatabase } from '../harness/database-target';

/**
 * The core's job runner: at most one run of a job per cluster even with several core processes
 * on one database (each runner here has its own connection pool, as a process would).
 */
const silent = pino({ level: 'silent' });
const cluster = validateConfig({
  Clusters: {
    jobs1: {
      SystemRootToken: 'x'.repeat(40),
      Database: { URL: 'postgres://unused' },
      Login: { Test: { Enable: true } },
    },
  },
}).Clusters['jobs1']!;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('job runner', () => {
  const dbs: Db[] = [];
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    ({ url, drop } = await createClusterDatabase());
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    await drop();
  });

  const open = async (): Promise<Db> => {
    const { db } = await openDatabase(url);
    dbs.push(db);
    return db;
  };

  it('never runs one job twice at once across processes sharing the database', async () => {
    const intervals: [number, number][] = [];
    let runs = 0;
    const job: Job = {
      name: 'overlap-probe',
      everyMs: 5,
      async run() {
        const start = Date.now();
        await sleep(30);
        intervals.push([start, Date.now()]);
        runs += 1;
      },
    };
    const runners = await Promise.all(
      [1, 2, 3].map(async () => new JobRunner({ db: await open(), cluster, log: silent }, [job])),
    );
    runners.forEach((r) => r.start());
    await sleep(600);
    await Promise.all(runners.map((r) => r.stop()));
    expect(runs).toBeGreaterThan(3);
    const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]![0]).toBeGreaterThanOrEqual(sorted[i - 1]![1]);
    const skipped = runners.reduce((n, r) => n + r.stats()['overlap-probe']!.skipped, 0);
    expect(skipped).toBeGreaterThan(0);
  });

  it('runs a triggered job, counts failures without stopping, and stop waits for a run in flight', async () => {
    let calls = 0;
    let finished = false;
    let sawAbort = false;
    const jobs: Job[] = [
      {
        name: 'queued',
        everyMs: 0,
        async run(ctx) {
          calls += 1;
          await sleep(50);
          sawAbort = ctx.signal.aborted;
          finished = true;
        },
      },
      {
        name: 'broken',
        everyMs: 0,
        async run() {
          throw new Error('boom');
        },
      },
    ];
    const runner = new JobRunner({ db: await open(), cluster, log: silent }, jobs);
    runner.start();
    await runner.runNow('broken');
    await runner.runNow('broken');
    expect(runner.stats()['broken']).toMatchObject({ runs: 0, failures: 2 });
    runner.trigger('queued');
    await sleep(20); // the run is in flight
    expect(finished).toBe(false);
    await runner.stop();
    expect([calls, finished, sawAbort]).toEqual([1, true, true]);
    runner.trigger('queued'); // after stop: nothing runs
    await sleep(20);
    expect(calls).toBe(1);
  });

  it('gives each job name its own lock', async () => {
    const db = await open();
    const order: string[] = [];
    const slow = (name: string): Job => ({
      name,
      everyMs: 0,
      async run() {
        order.push(`start ${name}`);
        await sleep(40);
        order.push(`end ${name}`);
      },
    });
    const runner = new JobRunner({ db, cluster, log: silent }, [slow('a'), slow('b')]);
    await Promise.all([runner.runNow('a'), runner.runNow('b')]);
    expect(order.slice(0, 2).sort()).toEqual(['start a', 'start b']);
  });
});
