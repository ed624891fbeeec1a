/**
 * execution.md §2.5 with a dispatcher in a process of its own (`svc-dispatcher`): killed with
 * SIGKILL while its containers run and started again, it neither loses nor duplicates a
 * container; a runner killed under it leaves its container Cancelled with the runner error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequest, getContainer } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import {
  busyboxRequest,
  finalRequest,
  leftoverCgroups,
  MiB,
  readCollectionFile,
  saveBusyboxImage,
  until,
} from '../harness/run-images';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';
import { describeWith } from '../harness/system';

jest.setTimeout(120_000);
const DISPATCHER = join(__dirname, '../../apps/dispatcher/dist/main.js');
const stateDir = mkdtempSync(join(tmpdir(), 'svc-dispatch-'));
let proc: ChildProcess | null = null;
// declared before the deployment's own hook, so that it runs first (hooks run in order)
afterAll(() => {
  proc?.kill('SIGKILL');
  rmSync(stateDir, { recursive: true, force: true });
});
const d = useDeployment(
  withVolumes(volumeDirs(1), {}, (section) => {
    section['Containers'] = { Dispatch: { PollInterval: 1 }, LogUpdatePeriod: 1 };
  }),
);

let u: TestUser;
let admin: TestUser;
let image: string;
beforeAll(async () => {
  u = await makeUser(d.current);
  admin = await makeUser(d.current, { is_admin: true });
  image = await saveBusyboxImage(u.client);
}, 60_000);

/** The dispatcher as a process of its own, with its admin token and state directory. */
function startDispatcherProcess(): ChildProcess {
  return spawn(process.execPath, [DISPATCHER], {
    env: {
      PATH: process.env['PATH'],
      SVC_API_HOST: d.current.url,
      SVC_API_TOKEN: admin.token,
      SVC_DISPATCH_DIR: stateDir,
    },
    stdio: 'ignore',
  });
}

const runRequest = (script: string, extra: Record<string, unknown> = {}) =>
  busyboxRequest(image, script, { tmp: MiB, ram: 128 * MiB }, extra);

const final = (uuid: string) => finalRequest(d.current, uuid);
const running = (uuid: string) =>
  until(`${uuid} Running`, async () => (await getContainer(d.current, uuid)).state === 'Running');

describeWith('bubblewrap', 'a dispatcher process restarted', () => {
  it('a dispatcher killed while containers run and started again finishes each once', async () => {
    proc = startDispatcherProcess();
    const crs = await Promise.all(
      [1, 2].map((i) => createRequest(u.client, runRequest(`sleep 4; echo ${i} > /out/n`))),
    );
    for (const cr of crs) await running(cr.container_uuid);
    proc.kill('SIGKILL');
    await new Promise((res) => proc!.once('exit', res));
    proc = startDispatcherProcess();
    for (const [i, cr] of crs.entries()) {
      const r = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([c.state, c.exit_code, c.lock_count]).toEqual(['Complete', 0, 1]);
      expect(r.container_count).toBe(1);
      expect(await readCollectionFile(u.client, r.output_uuid, 'n')).toBe(`${i + 1}\n`);
    }
  });

  it('a Running container whose runner is gone is cancelled with the runner error', async () => {
    proc ??= startDispatcherProcess();
    const cr = await createRequest(u.client, runRequest('sleep 300', { container_count_max: 1 }));
    await running(cr.container_uuid);
    const state = JSON.parse(
      readFileSync(join(stateDir, 'runners', `${cr.container_uuid}.json`), 'utf8'),
    ) as { pid: number };
    process.kill(state.pid, 'SIGKILL');
    await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect(c.state).toBe('Cancelled');
    expect(c.runtime_status.error).toBe('runner exited without finishing the container');
    // nothing of the runner is left: state files, work directory, cgroups
    await until('state cleared', async () =>
      readdirSync(join(stateDir, 'runners')).every((n) => !n.startsWith(cr.container_uuid)),
    );
    expect(existsSync(join(stateDir, 'work', cr.container_uuid))).toBe(false);
    expect(leftoverCgroups(cr.container_uuid)).toEqual([]);
  });
});
