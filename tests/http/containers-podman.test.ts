/**
 * execution.md §1, §3 with `Containers.RuntimeEngine: podman`: the runner loads the image
 * archive into podman, runs the command there with the mounts, the environment and the
 * memory limit, saves logs and output, and a priority drop stops the container.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { writeTar } from '@svc/runner';
import { createRequest, getContainer } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import {
  busyboxArchive,
  busyboxOciArchive,
  busyboxRequest,
  finalRequest,
  leftoverCgroups,
  MiB,
  readCollectionFile,
  saveBusyboxImage,
  saveFiles,
  STAMPED,
  startLocalDispatcher,
  until,
} from '../harness/run-images';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';
import { describeWith } from '../harness/system';

jest.setTimeout(120_000);
// declared before the deployment's own hook, so that it runs first (hooks run in order)
afterAll(async () => {
  await local?.dispatcher.stop();
  local?.cleanup();
});
const d = useDeployment(withVolumes(volumeDirs(1)));

let u: TestUser;
let image: string;
let local: Awaited<ReturnType<typeof startLocalDispatcher>>;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await saveBusyboxImage(u.client);
  local = await startLocalDispatcher(d.current, undefined, { RuntimeEngine: 'podman' });
}, 60_000);

const runRequest = (script: string, extra: Record<string, unknown> = {}) =>
  busyboxRequest(image, script, { ram: 128 * MiB }, extra);
const final = (uuid: string) => finalRequest(d.current, uuid);

describeWith('podman', 'containers run in podman', () => {
  it('ends Final with the output x = hi and a log with a timestamped done line', async () => {
    const cr = await createRequest(u.client, runRequest('echo hi > /out/x; echo done'));
    const r = await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.exit_code, c.runtime_status]).toEqual(['Complete', 0, {}]);
    expect(await readCollectionFile(u.client, r.output_uuid, 'x')).toBe('hi\n');
    expect(await readCollectionFile(u.client, r.log_uuid, 'stdout.txt')).toMatch(STAMPED('done'));
    const runner = await readCollectionFile(u.client, r.log_uuid, 'runner.txt');
    expect(runner).toMatch(/as svc-image:[0-9a-f]{32}/);
    // the runner's cgroups go, with the ones podman made below them (the container's, conmon's)
    await until('cgroups removed', async () => leftoverCgroups(c.uuid).length === 0, 10_000);
  });

  it("the image's Env, then the container's environment; cwd; a non-zero exit code", async () => {
    const cr = await createRequest(
      u.client,
      runRequest('echo "$IMAGE_VAR $MINE $(pwd)" > /out/env; exit 3', {
        environment: { MINE: 'mine' },
        cwd: '/out',
      }),
    );
    await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.exit_code]).toEqual(['Complete', 3]);
    const out = await readCollectionFile(u.client, c.output, 'env');
    expect(out).toBe('from-image mine /out\n');
  });

  it('a command allocating past ram is killed: Complete with exit code 137 and the memory warning', async () => {
    const ram = 64 * MiB;
    const cr = await createRequest(
      u.client,
      runRequest('head -c 300000000 /dev/zero | tail > /dev/null', {
        runtime_constraints: { ram, vcpus: 1 },
        container_count_max: 1,
      }),
    );
    await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.exit_code]).toEqual(['Complete', 137]);
    expect(c.runtime_status.warning).toBe(`container exceeded its memory limit of ${ram} bytes`);
  });

  it('a command that ends with 137 (as if killed) under its limit gets no memory warning', async () => {
    const cr = await createRequest(
      u.client,
      runRequest('sleep 60 & kill -9 $!; wait $!', {
        runtime_constraints: { ram: 64 * MiB, vcpus: 1 },
        container_count_max: 1,
      }),
    );
    await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.exit_code, c.runtime_status.warning]).toEqual(['Complete', 137, undefined]);
  });

  it('mounts below directories the image has; the image around them stays, read-only (§3.3)', async () => {
    const withVar = await saveBusyboxImage(u.client, [
      writeTar([
        { path: 'var', type: 'dir' },
        { path: 'var/lib', type: 'dir' },
        { path: 'var/lib/existing.txt', data: 'from the image\n' },
        { path: 'usr/local', type: 'dir' },
        { path: 'usr/local/share', type: 'dir' },
      ]),
    ]);
    const script = [
      'cat /var/lib/x/input.json /var/lib/existing.txt > /out/read.txt',
      'echo w > /usr/local/work/f && cat /usr/local/work/f >> /out/read.txt',
      'touch /var/lib/new 2>/dev/null && echo writable > /out/ro.txt',
      'test -e /out/ro.txt || echo read-only > /out/ro.txt',
    ].join('; ');
    const cr = await createRequest(
      u.client,
      busyboxRequest(
        withVar,
        script,
        { ram: 128 * MiB },
        {
          mounts: {
            '/out': { kind: 'tmp', capacity: MiB },
            '/var/lib/x/input.json': { kind: 'json', content: 'in' },
            '/usr/local/work': { kind: 'tmp', capacity: MiB },
          },
        },
      ),
    );
    const r = await final(cr.uuid);
    expect(await readCollectionFile(u.client, r.output_uuid, 'read.txt')).toBe(
      '"in"from the image\nw\n',
    );
    expect(await readCollectionFile(u.client, r.output_uuid, 'ro.txt')).toBe('read-only\n');
  });

  it('an OCI image layout archive loads into podman and runs, with its Env (§3.1)', async () => {
    // a new image each run (an image already in the store is not loaded again)
    const nonce = writeTar([{ path: 'etc/nonce', data: randomBytes(8).toString('hex') }]);
    const oci = await saveBusyboxImage(u.client, [], busyboxOciArchive([nonce]));
    const r = await final(
      (
        await createRequest(
          u.client,
          busyboxRequest(oci, 'echo "$IMAGE_VAR" > /out/x', { ram: 128 * MiB }),
        )
      ).uuid,
    );
    expect(await readCollectionFile(u.client, r.log_uuid, 'runner.txt')).toMatch(
      /loaded into podman as svc-image:/,
    );
    expect(await readCollectionFile(u.client, r.output_uuid, 'x')).toBe('from-image\n');
  });

  it('priority 0 stops the podman container; the request ends Final without output', async () => {
    const cr = await createRequest(u.client, runRequest('echo started; sleep 300'));
    await until(
      'Running',
      async () => (await getContainer(d.current, cr.container_uuid)).state === 'Running',
    );
    const res = await u.client.request('PUT', `/svc/v1/container_requests/${cr.uuid}`, {
      json: { container_request: { priority: 0 } },
    });
    expect(res.status).toBe(200);
    const r = await final(cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, r.output_uuid]).toEqual(['Cancelled', null]);
  });

  const podman = async (...args: string[]) => (await promisify(execFile)('podman', args)).stdout;
  const runnerTags = async () =>
    (await podman('images', '--format', '{{.Repository}}:{{.Tag}}'))
      .split('\n')
      .filter((n) => n.includes('svc-image:'))
      .map((n) => n.replace(/^localhost\//, ''));
  const refIn = async (logUuid: string) =>
    /as (svc-image:[0-9a-f]{32})/.exec(
      await readCollectionFile(u.client, logUuid, 'runner.txt'),
    )?.[1];

  it("an archive naming itself after another image's runner tag does not change that image", async () => {
    const used = await final(
      (await createRequest(u.client, runRequest(`echo ${randomBytes(8).toString('hex')}`))).uuid,
    );
    const usedRef = await refIn(used.log_uuid);
    // a new image each run (an image already in the store is not loaded again)
    const marked = writeTar([
      { path: 'etc/marker', data: 'theirs' },
      { path: 'etc/nonce', data: randomBytes(8).toString('hex') },
    ]);
    const { pdh } = await saveFiles(u.client, {
      'image.tar': busyboxArchive([marked], {}, [usedRef!]),
    });
    const theirs = await final(
      (await createRequest(u.client, busyboxRequest(pdh, 'true', { ram: 128 * MiB }))).uuid,
    );
    expect(await refIn(theirs.log_uuid)).not.toBe(usedRef);
    // the shared image's tag still names the shared image
    const again = await final(
      (
        await createRequest(
          u.client,
          runRequest(
            `(cat /etc/marker || echo none) > /out/x; echo ${randomBytes(8).toString('hex')}`,
          ),
        )
      ).uuid,
    );
    expect(await readCollectionFile(u.client, again.output_uuid, 'x')).toBe('none\n');
  });

  it("podman's store keeps at most 8 runner images, the least recently used go first", async () => {
    // the shared image, used just now
    const used = await final(
      (await createRequest(u.client, runRequest(`echo ${randomBytes(8).toString('hex')}`))).uuid,
    );
    const usedRef = await refIn(used.log_uuid);
    // eight runner tags no runner of this dispatcher has used
    for (let i = 0; i < 8; i++)
      await podman('tag', usedRef!, `svc-image:${randomBytes(16).toString('hex')}`);
    const layer = writeTar([{ path: 'etc/unique', data: randomBytes(8).toString('hex') }]);
    const fresh = await saveBusyboxImage(u.client, [layer]);
    const r = await final(
      (await createRequest(u.client, busyboxRequest(fresh, 'true', { ram: 128 * MiB }))).uuid,
    );
    const runnerLog = await readCollectionFile(u.client, r.log_uuid, 'runner.txt');
    expect(runnerLog).toMatch(/loaded into podman as svc-image:/);
    expect(runnerLog).toMatch(/removed from podman \(least recently used\)/);
    const tags = await runnerTags();
    expect(tags).toHaveLength(8);
    expect(tags).toEqual(expect.arrayContaining([usedRef, await refIn(r.log_uuid)]));
    // the archive's own name does not stay beside the runner's tag
    expect(await podman('images', '--format', '{{.Repository}}:{{.Tag}}')).not.toMatch(
      /busybox:test/,
    );
  });
});
