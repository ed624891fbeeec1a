/**
 * execution.md: containers actually run. A local dispatcher (a client of the public API only)
 * starts runners that load a `docker save` image built here (Debian's static busybox), run the
 * command in bubblewrap, and save logs and output as collections with real bytes.
 */
import { createRequest, getContainer, getRequest } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import {
  busyboxOciArchive,
  busyboxRequest,
  collectionNames,
  MiB,
  readCollectionFile,
  saveBusyboxImage,
  saveFiles,
  STAMPED,
  startLocalDispatcher,
} from '../harness/run-images';
import { runSvc } from '../cli/run-svc';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';
import { describeWith } from '../harness/system';

jest.setTimeout(90_000);
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
  local = await startLocalDispatcher(d.current);
}, 60_000);

const runRequest = (script: string, extra: Record<string, unknown> = {}) =>
  busyboxRequest(image, script, {}, extra);

/** Polls a request until `until` holds (the dispatcher's poll is 1 s here). */
async function waitRequest(uuid: string, until: (r: Record<string, any>) => boolean, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await getRequest(d.current, uuid);
    if (until(r)) return r;
    if (Date.now() > end) throw new Error(`request ${uuid} still ${r.state}: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}
const final = (uuid: string) => waitRequest(uuid, (r) => r.state === 'Final');

describeWith('bubblewrap', 'containers run in bubblewrap', () => {
  describe('a container runs end to end (execution.md §3, §4)', () => {
    let first: Record<string, any>;

    it('ends Final with the output x = hi and a log with a timestamped done line', async () => {
      const cr = await createRequest(u.client, runRequest('echo hi > /out/x; echo done'));
      first = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([c.state, c.exit_code, c.runtime_status]).toEqual(['Complete', 0, {}]);
      expect(first.output_uuid).toEqual(expect.any(String));
      expect(await readCollectionFile(u.client, first.output_uuid, 'x')).toBe('hi\n');
      const stdout = await readCollectionFile(u.client, first.log_uuid, 'stdout.txt');
      expect(stdout).toMatch(STAMPED('done'));
      expect(await collectionNames(u.client, first.log_uuid)).toEqual(
        expect.arrayContaining([
          'container.json',
          'runner.txt',
          'stderr.txt',
          'stdout.txt',
          'usage.txt',
        ]),
      );
      expect(await readCollectionFile(u.client, first.log_uuid, 'usage.txt')).toMatch(
        STAMPED('cpu_seconds [\\d.]+ memory_bytes \\d+ memory_peak_bytes \\d+ processes \\d+'),
      );
      const runner = await readCollectionFile(u.client, first.log_uuid, 'runner.txt');
      for (const line of runner.trimEnd().split('\n')) expect(line).toMatch(STAMPED('.*'));
    });

    it('an identical request reuses the finished container', async () => {
      const again = await createRequest(u.client, runRequest('echo hi > /out/x; echo done'));
      expect(again.container_uuid).toBe(first.container_uuid);
      const r = await final(again.uuid);
      expect(await readCollectionFile(u.client, r.output_uuid, 'x')).toBe('hi\n');
    });

    it("the image's Env comes first, then the container's environment; cwd and a non-zero exit", async () => {
      const cr = await createRequest(
        u.client,
        runRequest('echo "$IMAGE_VAR $MINE $(pwd)" > /out/env; exit 3', {
          environment: { MINE: 'mine' },
          cwd: '/out',
        }),
      );
      const r = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([c.state, c.exit_code]).toEqual(['Complete', 3]);
      expect(r.output_uuid).toBeNull();
      const log = await readCollectionFile(u.client, r.log_uuid, 'runner.txt');
      expect(log).toMatch(/command exited with code 3/);
    });

    it('an OCI image layout archive runs as a docker save one does, with its Env (§3.1)', async () => {
      const oci = await saveBusyboxImage(u.client, [], busyboxOciArchive());
      const cr = await createRequest(u.client, busyboxRequest(oci, 'echo "$IMAGE_VAR" > /out/x'));
      const r = await final(cr.uuid);
      expect(await readCollectionFile(u.client, r.output_uuid, 'x')).toBe('from-image\n');
    });
  });

  describe('stopping containers', () => {
    it('priority 0 stops a running container; the request ends Final without output', async () => {
      const cr = await createRequest(u.client, runRequest('echo started; sleep 300'));
      await waitRequest(cr.uuid, () => true, 1);
      const end = Date.now() + 60_000;
      while ((await getContainer(d.current, cr.container_uuid)).state !== 'Running') {
        if (Date.now() > end) throw new Error('never Running');
        await new Promise((res) => setTimeout(res, 250));
      }
      const res = await u.client.request('PUT', `/svc/v1/container_requests/${cr.uuid}`, {
        json: { container_request: { priority: 0 } },
      });
      expect(res.status).toBe(200);
      const r = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect(c.state).toBe('Cancelled');
      expect(r.output_uuid).toBeNull();
      expect(await local.dispatcher.opts.backend.list()).not.toContain(cr.container_uuid);
    });

    it('a command running past max_run_time is stopped with its error', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('sleep 300', {
          scheduling_parameters: { max_run_time: 1 },
          container_count_max: 1,
        }),
      );
      const r = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect(c.state).toBe('Cancelled');
      expect(c.runtime_status.error).toBe('maximum run time exceeded');
      expect(r.output_uuid).toBeNull();
    });

    it('a command allocating past ram ends Complete with 137 and the memory warning', async () => {
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
  });

  describe('output rules (containers.md §3)', () => {
    it('writable collection mounts are copied into the output; read-only ones are spliced in and stay read-only', async () => {
      const src = await saveFiles(u.client, { a: 'a1\n', b: 'b1\n' });
      const ro = await saveFiles(u.client, { 'r.txt': 'r\n' });
      const cr = await createRequest(
        u.client,
        runRequest(
          'echo changed > /out/in/a; rm /out/in/b; (echo x > /out/ro/f) 2>/dev/null || echo refused > /out/status; echo a > /out/f; ln -s f /out/g',
          {
            mounts: {
              '/out': { kind: 'tmp', capacity: 10 * MiB },
              '/out/in': { kind: 'collection', portable_data_hash: src.pdh, writable: true },
              '/out/ro': { kind: 'collection', portable_data_hash: ro.pdh },
            },
          },
        ),
      );
      const r = await final(cr.uuid);
      expect(r.output_uuid).toEqual(expect.any(String));
      expect(await collectionNames(u.client, r.output_uuid)).toEqual([
        'f',
        'g',
        'in',
        'ro',
        'status',
      ]);
      expect(await readCollectionFile(u.client, r.output_uuid, 'in/a')).toBe('changed\n');
      await expect(readCollectionFile(u.client, r.output_uuid, 'in/b')).rejects.toThrow('not in');
      expect(await readCollectionFile(u.client, r.output_uuid, 'ro/r.txt')).toBe('r\n');
      expect(await readCollectionFile(u.client, r.output_uuid, 'status')).toBe('refused\n');
      // a symlink inside the output is saved as the file it points to
      expect(await readCollectionFile(u.client, r.output_uuid, 'g')).toBe('a\n');
      // the source is unchanged
      expect(await readCollectionFile(u.client, src.uuid, 'b')).toBe('b1\n');
    });

    it('a symlink escaping the output makes it invalid: Cancelled with the error naming it', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('ln -s /etc/passwd /out/bad', { container_count_max: 1 }),
      );
      const r = await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect(c.state).toBe('Cancelled');
      expect(c.runtime_status.error).toContain('/out/bad');
      expect(r.output_uuid).toBeNull();
    });
  });

  describe('restart (execution.md §2.5)', () => {
    it('a dispatcher restarted while containers run finishes each once, none twice, none lost', async () => {
      const crs = await Promise.all(
        [1, 2].map((i) => createRequest(u.client, runRequest(`sleep 3; echo ${i} > /out/n`))),
      );
      const end = Date.now() + 60_000;
      const states = async () =>
        Promise.all(
          crs.map(async (cr) => (await getContainer(d.current, cr.container_uuid)).state),
        );
      while ((await states()).some((s) => s !== 'Running')) {
        if (Date.now() > end) throw new Error('never Running');
        await new Promise((res) => setTimeout(res, 200));
      }
      // the dispatcher goes away while its runners keep running, then comes back with its
      // token and state
      await local.dispatcher.stop();
      local = await startLocalDispatcher(d.current, local.stateDir, {}, local.token);
      for (const [i, cr] of crs.entries()) {
        const r = await final(cr.uuid);
        const c = await getContainer(d.current, cr.container_uuid);
        expect([c.state, c.exit_code, c.lock_count]).toEqual(['Complete', 0, 1]);
        expect(await readCollectionFile(u.client, r.output_uuid, 'n')).toBe(`${i + 1}\n`);
      }
    });
  });

  describe('svc run and svc logs', () => {
    it('svc run files a request, shows its log, and prints where the output is', async () => {
      const run = await runSvc(
        ['run', '--image', image, '--', 'sh', '-c', 'echo from-cli; echo out > /out/o'],
        { SVC_API_HOST: d.current.url, SVC_API_TOKEN: u.token, HOME: '/nonexistent' },
      );
      expect(run.stderr).toMatch(/container Complete, exit code 0/);
      expect(run.stdout).toMatch(STAMPED('from-cli'));
      const output = /output: (\S+)/.exec(run.stdout)?.[1];
      expect(await readCollectionFile(u.client, output!, 'o')).toBe('out\n');
      expect(run.code).toBe(0);
    });

    it('svc logs follows a request until it ends', async () => {
      const cr = await createRequest(u.client, runRequest('echo one; sleep 2; echo two'));
      const logs = await runSvc(['logs', cr.uuid], {
        SVC_API_HOST: d.current.url,
        SVC_API_TOKEN: u.token,
        HOME: '/nonexistent',
      });
      expect(logs.code).toBe(0);
      expect(logs.stdout).toMatch(STAMPED('one'));
      expect(logs.stdout).toMatch(STAMPED('two'));
    });
  });

  describe('API access (execution.md §3.4, containers.md §7)', () => {
    it('a container with API: true files a child request with its own token; the child has the parent priority', async () => {
      const child = JSON.stringify({
        container_request: {
          command: ['sh', '-c', 'echo child > /out/c'],
          container_image: image,
          cwd: '/',
          output_path: '/out',
          mounts: { '/out': { kind: 'tmp', capacity: MiB } },
          runtime_constraints: { ram: 64 * MiB, vcpus: 1 },
          priority: 1,
          state: 'Committed',
        },
      });
      // SVC_API_HOST is host:port, as for clients outside; the plain-HTTP gateway adds the scheme
      const script = [
        'echo "$SVC_API_SCHEME $SVC_API_HOST" > /out/api.txt;',
        `wget -q -O /out/child.json --header "Authorization: Bearer $SVC_API_TOKEN"`,
        `--header "Content-Type: application/json" --post-data '${child}'`,
        `"$SVC_API_SCHEME://$SVC_API_HOST/svc/v1/container_requests"`,
      ].join(' ');
      const cr = await createRequest(
        u.client,
        runRequest(script, {
          priority: 7,
          runtime_constraints: { ram: 64 * MiB, vcpus: 1, API: true },
        }),
      );
      const r = await final(cr.uuid);
      const made = JSON.parse(await readCollectionFile(u.client, r.output_uuid, 'child.json'));
      expect(made.requesting_container_uuid).toBe(cr.container_uuid);
      expect(made.priority).toBe(7);
      const api = await readCollectionFile(u.client, r.output_uuid, 'api.txt');
      expect(api).toBe(`http ${new URL(d.current.url).host}\n`);
    });
  });

  describe('failures the runner and dispatcher report (execution.md §2.2, §3)', () => {
    it('a container larger than the whole capacity is cancelled with the capacity message', async () => {
      const ram = 2 ** 50;
      const cr = await createRequest(
        u.client,
        runRequest('true', { runtime_constraints: { ram, vcpus: 1 }, container_count_max: 1 }),
      );
      await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect(c.state).toBe('Cancelled');
      expect(c.runtime_status.error).toMatch(
        new RegExp(
          `^container requires 1 VCPUs and ${ram} bytes of RAM; the largest this cluster can run is \\d+ VCPUs and \\d+ bytes$`,
        ),
      );
    });

    it('an image collection without one .tar file cannot be loaded', async () => {
      const bad = await saveFiles(u.client, { 'notes.txt': 'not an image' });
      const cr = await createRequest(
        u.client,
        runRequest('true', { container_image: bad.pdh, container_count_max: 1 }),
      );
      await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect(c.state).toBe('Cancelled');
      expect(c.runtime_status.error).toBe(
        `cannot load image ${bad.pdh}: the collection must hold exactly one .tar file`,
      );
    });

    it('a keep mount is not supported in v1', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('true', {
          mounts: { '/out': { kind: 'tmp', capacity: MiB }, '/keep': { kind: 'keep' } },
          container_count_max: 1,
        }),
      );
      await final(cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([c.state, c.runtime_status.error]).toEqual([
        'Cancelled',
        'mount kind keep is not supported',
      ]);
    });

    it('stdout redirected by a file mount goes to that file, not to the log', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('echo to-file; echo to-err >&2', {
          mounts: {
            '/out': { kind: 'tmp', capacity: MiB },
            stdout: { kind: 'file', path: '/out/o.txt' },
          },
        }),
      );
      const r = await final(cr.uuid);
      expect(await readCollectionFile(u.client, r.output_uuid, 'o.txt')).toBe('to-file\n');
      expect(await readCollectionFile(u.client, r.log_uuid, 'stderr.txt')).toMatch(
        STAMPED('to-err'),
      );
      expect(await readCollectionFile(u.client, r.log_uuid, 'stdout.txt')).toBe('');
    });
  });

  describe('several dispatchers (execution.md §2.6)', () => {
    it('two dispatchers share a queue; the lock decides, each container runs once', async () => {
      const other = await startLocalDispatcher(d.current);
      try {
        const crs = await Promise.all(
          [1, 2, 3, 4].map((i) =>
            createRequest(u.client, runRequest(`sleep 1; echo ${i} > /out/n`)),
          ),
        );
        for (const [i, cr] of crs.entries()) {
          const r = await final(cr.uuid);
          const c = await getContainer(d.current, cr.container_uuid);
          expect([c.state, c.exit_code, c.lock_count]).toEqual(['Complete', 0, 1]);
          expect(await readCollectionFile(u.client, r.output_uuid, 'n')).toBe(`${i + 1}\n`);
        }
      } finally {
        await other.dispatcher.stop();
        other.cleanup();
      }
    });
  });

  describe('secret mounts (execution.md §3.3)', () => {
    it('are files for the command, never part of the output or of the runner logs', async () => {
      const cr = await createRequest(
        u.client,
        runRequest('cat /out/s.txt > /out/copy', {
          secret_mounts: { '/out/s.txt': { kind: 'text', content: 's3cret-value' } },
        }),
      );
      const r = await final(cr.uuid);
      expect(await collectionNames(u.client, r.output_uuid)).toEqual(['copy']);
      expect(await readCollectionFile(u.client, r.output_uuid, 'copy')).toBe('s3cret-value');
      for (const name of ['runner.txt', 'container.json', 'stdout.txt', 'stderr.txt']) {
        expect(await readCollectionFile(u.client, r.log_uuid, name)).not.toContain('s3cret');
      }
    });
  });
});
