/**
 * execution.md §2 on the Slurm backend: a real single-node Slurm (slurmctld, slurmd, munge)
 * started by the test; the dispatcher submits one batch job per container with the
 * arguments of §2.2, and the runner runs inside the job.
 */
import { execFileSync } from 'node:child_process';
import { createRequest, getContainer } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import {
  busyboxRequest,
  finalRequest,
  MiB,
  readCollectionFile,
  saveBusyboxImage,
  STAMPED,
  startLocalDispatcher,
  until,
} from '../harness/run-images';
import { startSlurm, type TestSlurm } from '../harness/slurm';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';
import { describeWith } from '../harness/system';

jest.setTimeout(120_000);
// declared before the deployment's own hook, so that it runs first (hooks run in order)
afterAll(async () => {
  await dispatch?.dispatcher.stop();
  dispatch?.cleanup();
  slurm?.stop();
});
const d = useDeployment(withVolumes(volumeDirs(1)));

let u: TestUser;
let image: string;
let slurm: TestSlurm;
let dispatch: Awaited<ReturnType<typeof startLocalDispatcher>>;
beforeAll(async () => {
  slurm = startSlurm();
  u = await makeUser(d.current);
  image = await saveBusyboxImage(u.client);
  dispatch = await startLocalDispatcher(
    d.current,
    undefined,
    { Slurm: { SbatchArguments: ['--comment=svc-test'], ReserveExtraRAM: 128 * MiB } },
    undefined,
    { backend: 'slurm', slurmEnv: slurm.env },
  );
}, 90_000);

const runRequest = (script: string, extra: Record<string, unknown> = {}) =>
  busyboxRequest(image, script, { tmp: 10 * MiB, ram: 256 * MiB }, extra);

const final = (uuid: string) => finalRequest(d.current, uuid);

describeWith('slurm', 'containers run on Slurm', () => {
  describe('the Slurm backend', () => {
    let first: Record<string, any>;

    it('runs a container in a batch job: Final with output x = hi and a timestamped done line', async () => {
      const cr = await createRequest(u.client, runRequest('echo hi > /out/x; echo done'));
      first = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([c.state, c.exit_code]).toEqual(['Complete', 0]);
      expect(await readCollectionFile(u.client, first.output_uuid, 'x')).toBe('hi\n');
      expect(await readCollectionFile(u.client, first.log_uuid, 'stdout.txt')).toMatch(
        STAMPED('done'),
      );
    });

    it('an identical request reuses the container', async () => {
      const again = await createRequest(u.client, runRequest('echo hi > /out/x; echo done'));
      expect(again.container_uuid).toBe(first.container_uuid);
    });

    it('submits the job with the arguments of §2.2; priority 0 cancels it and leaves no job', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('echo started; sleep 300', {
          priority: 3,
          scheduling_parameters: { max_run_time: 600 },
        }),
      );
      const uuid = cr.container_uuid;
      await until('Running', async () => (await getContainer(d.current, uuid)).state === 'Running');
      const job = slurm.jobs().find((l) => l.split(' ')[1] === uuid)!;
      const info = execFileSync('scontrol', ['show', 'job', job.split(' ')[0]!], {
        env: slurm.env,
        encoding: 'utf8',
      });
      const c = await getContainer(d.current, uuid);
      expect(info).toContain(`JobName=${uuid}`);
      expect(info).toMatch(/MinMemoryNode=384M/); // ceil((256 MiB + 128 MiB) / MiB)
      expect(info).toMatch(/TimeLimit=00:10:00/);
      expect(info).toContain(`Nice=${1000 - Number(BigInt(c.priority) / 2n ** 50n)}`);
      expect(info).toContain('Comment=svc-test');
      await u.client.request('PUT', `/svc/v1/container_requests/${cr.uuid}`, {
        json: { container_request: { priority: 0 } },
      });
      const r = await final(cr.uuid);
      expect((await getContainer(d.current, uuid)).state).toBe('Cancelled');
      expect(r.output_uuid).toBeNull();
      await until('no job left', async () => !slurm.jobs().some((l) => l.includes(uuid)), 30_000);
    });
  });

  describe('Slurm priorities', () => {
    it("a queued job follows its container's priority through its nice value", async () => {
      const jobInfo = (uuid: string) => {
        const job = slurm.jobs().find((l) => l.split(' ')[1] === uuid);
        if (!job) return '';
        return execFileSync('scontrol', ['show', 'job', job.split(' ')[0]!], {
          env: slurm.env,
          encoding: 'utf8',
        });
      };
      // A takes both CPUs of the node, so B's job waits in Slurm's queue
      const a = await createRequest(
        u.client,
        runRequest('sleep 300', { runtime_constraints: { ram: 64 * MiB, vcpus: 2 } }),
      );
      await until(
        'A Running',
        async () => (await getContainer(d.current, a.container_uuid)).state === 'Running',
      );
      const b = await createRequest(
        u.client,
        runRequest('true', { runtime_constraints: { ram: 64 * MiB, vcpus: 2 } }),
      );
      await until('B submitted', async () => jobInfo(b.container_uuid).includes('Nice=1000'));
      await u.client.request('PUT', `/svc/v1/container_requests/${b.uuid}`, {
        json: { container_request: { priority: 500 } },
      });
      const c = await getContainer(d.current, b.container_uuid);
      const nice = 1000 - Number(BigInt(c.priority) / 2n ** 50n);
      expect(nice).toBe(501);
      await until('nice updated', async () => jobInfo(b.container_uuid).includes(`Nice=${nice}`));
      for (const r of [a, b]) {
        await u.client.request('PUT', `/svc/v1/container_requests/${r.uuid}`, {
          json: { container_request: { priority: 0 } },
        });
      }
      for (const r of [a, b]) await final(r.uuid);
      await until('no job left', async () => slurm.jobs().length === 0, 30_000);
    });
  });
});
