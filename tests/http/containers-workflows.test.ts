/**
 * What a workflow runner needs of svc, over HTTP with the real dispatcher and runner
 * (bubblewrap): images by name (containers.md §6, `svc image put`), mounts below the image's
 * own directories (execution.md §3.3), a runner submitted as a container that reads its
 * inputs from `json` mounts, files its steps and sets its own output (§3.4, §3.7), collection
 * mounts read as checked streams (§3.3), and no repeated POST of a collection after a 503.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { SvcClient } from '@svc/client';
import { newDir, rendezvousOrder, serializeManifestTree } from '@svc/blocks';
import { CollectionStore, writeTar } from '@svc/runner';
import { runSvc } from '../cli/run-svc';
import { BlockProxy } from '../harness/block-proxy';
import { createRequest, getContainer } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import {
  busyboxArchive,
  busyboxRequest,
  collectionNames,
  finalRequest,
  MiB,
  readCollectionFile,
  saveFiles,
  startLocalDispatcher,
  until,
} from '../harness/run-images';
import { filesUnder, md5, volumeDirs, withVolumes } from '../harness/storage';
import { describeWith } from '../harness/system';
import { makeUser, type TestUser } from '../harness/users';

jest.setTimeout(120_000);
const IMAGE = 'wf/busybox:1';
const home = mkdtempSync(join(tmpdir(), 'svc-workflows-'));
const volumes = volumeDirs(2);
let local: Awaited<ReturnType<typeof startLocalDispatcher>>;
let proxy: BlockProxy;
// declared before the deployment's own hook, so that it runs first (hooks run in order)
afterAll(async () => {
  await local?.dispatcher.stop();
  local?.cleanup();
  await proxy?.close();
  rmSync(home, { recursive: true, force: true });
});
// two copies of every block: a corrupt one can be read from the other
const d = useDeployment(withVolumes(volumes, { DefaultReplication: 2 }));

let u: TestUser;
beforeAll(async () => {
  u = await makeUser(d.current);
  // the runners reach the API through a proxy that can lose an answer (the last test)
  proxy = await new BlockProxy(d.current.url).start();
  local = await startLocalDispatcher(d.current, undefined, {}, undefined, { apiHost: proxy.url });
}, 60_000);

describeWith('bubblewrap', 'workflow runners', () => {
  const svc = (args: string[]) =>
    runSvc(args, { HOME: home, SVC_API_HOST: d.current.url, SVC_API_TOKEN: u.token });

  beforeAll(async () => {
    // the image has /var and /usr/local of its own: the mounts below go inside them
    const extra = writeTar([
      { path: 'var', type: 'dir' },
      { path: 'var/lib', type: 'dir' },
      { path: 'var/lib/existing.txt', data: 'from the image\n' },
      { path: 'usr/local', type: 'dir' },
      { path: 'usr/local/share', type: 'dir' },
      { path: 'usr/local/share/keep.txt', data: 'kept\n' },
    ]);
    const archive = join(home, 'busybox.tar');
    writeFileSync(archive, busyboxArchive([extra]));
    const put = await svc(['image', 'put', archive, IMAGE]);
    if (put.code !== 0) throw new Error(`svc image put: ${put.stderr}`);
  }, 60_000);

  it('an image registered with svc image put runs as svc run --image repo:tag (containers.md §6)', async () => {
    const run = await svc(['run', '--image', IMAGE, '--', 'sh', '-c', 'echo named > x; echo ran']);
    expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/ran\n[^]*output: /)]);
  });

  it('mounts below directories the image has; the image around them stays, read-only (execution.md §3.3)', async () => {
    const script = [
      'cat /var/lib/x/input.json > /out/input.json',
      'echo w > /usr/local/work/f && cat /usr/local/work/f > /out/work.txt',
      'cat /var/lib/existing.txt /usr/local/share/keep.txt > /out/image.txt',
      '(touch /var/lib/new || touch /usr/local/new) 2>/dev/null && echo writable > /out/ro.txt',
      'test -e /out/ro.txt || echo read-only > /out/ro.txt',
    ].join('; ');
    const cr = await createRequest(
      u.client,
      busyboxRequest(
        IMAGE,
        script,
        {},
        {
          mounts: {
            '/out': { kind: 'tmp', capacity: MiB },
            '/var/lib/x/input.json': { kind: 'json', content: { reads: ['a', 'b'] } },
            '/usr/local/work': { kind: 'tmp', capacity: MiB },
          },
        },
      ),
    );
    const r = await finalRequest(d.current, cr.uuid);
    const file = (name: string) => readCollectionFile(u.client, r.output_uuid, name);
    expect(JSON.parse(await file('input.json'))).toEqual({ reads: ['a', 'b'] });
    expect(await file('work.txt')).toBe('w\n');
    expect(await file('image.txt')).toBe('from the image\nkept\n');
    expect(await file('ro.txt')).toBe('read-only\n');
  });

  it('a submitted runner reads its json inputs, files its step by image name, and sets its own output (§3.4, §3.7)', async () => {
    // the workflow runner, as a client from outside: the public config names the API
    const config = await d.current.client(null).request('GET', '/svc/v1/config');
    const api = new SvcClient(config.body.Services.Controller.ExternalURL, u.token);
    const inputs = await saveFiles(api, { 'reads.txt': 'c\na\nb\n' }, { name: 'inputs' });
    // the step it will file from inside its container: sort the reads
    const step = JSON.stringify({
      container_request: {
        name: 'step sort',
        container_image: IMAGE,
        command: ['sh', '-c', 'sort /in/reads.txt > /out/sorted.txt'],
        cwd: '/',
        output_path: '/out',
        mounts: {
          '/out': { kind: 'tmp', capacity: MiB },
          '/in': { kind: 'collection', portable_data_hash: inputs.pdh },
        },
        runtime_constraints: { ram: 64 * MiB, vcpus: 1 },
        priority: 1,
        state: 'Committed',
      },
    });
    // the runner inside: busybox sh and wget, as far as a shell goes
    const runner = `
      set -e
      API="$SVC_API_SCHEME://$SVC_API_HOST/svc/v1"; H="Authorization: Bearer $SVC_API_TOKEN"
      get() { wget -q -O - --header "$H" "$API/$1"; }
      post() { wget -q -O - --header "$H" --header "Content-Type: application/json" "$@"; }
      field() { grep -o "\\"$1\\":\\"[^\\"]*\\"" | head -n 1 | cut -d '"' -f 4; }
      get config | grep -q "\\"Controller\\":{\\"ExternalURL\\":\\"$SVC_API_SCHEME://$SVC_API_HOST/\\"}"
      cp /var/lib/cwl/cwl.input.json /usr/local/work/inputs.json
      me=$(get 'containers/current?select=%5B%22uuid%22%5D' | field uuid)
      req=$(post --post-data "$(cat /usr/local/work/step.json)" "$API/container_requests" | field uuid)
      until get "container_requests/$req" | grep -q '"state":"Final"'; do sleep 1; done
      out=$(get "container_requests/$req" | field output_uuid)
      manifest=$(get "collections/$out" | field manifest_text)
      mine=$(post --post-data "{\\"collection\\":{\\"name\\":\\"assembled\\",\\"manifest_text\\":\\"$manifest\\"}}" "$API/collections" | field portable_data_hash)
      post --header 'X-Http-Method-Override: PUT' --post-data "{\\"container\\":{\\"output\\":\\"$mine\\"}}" "$API/containers/$me" > /dev/null
      echo "not the output" > /out/decoy.txt`;
    const cr = await createRequest(
      api,
      busyboxRequest(
        IMAGE,
        runner,
        {},
        {
          name: 'workflow runner',
          mounts: {
            '/out': { kind: 'tmp', capacity: MiB },
            '/var/lib/cwl/cwl.input.json': { kind: 'json', content: { reads: inputs.pdh } },
            '/usr/local/work/step.json': { kind: 'text', content: step },
            '/usr/local/work': { kind: 'tmp', capacity: MiB },
          },
          runtime_constraints: { ram: 64 * MiB, vcpus: 1, API: true },
        },
      ),
    );
    const r = await finalRequest(d.current, cr.uuid);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.exit_code]).toEqual(['Complete', 0]);
    // the request's output holds exactly what the runner set, not its output directory
    expect(await collectionNames(u.client, r.output_uuid)).toEqual(['sorted.txt']);
    expect(await readCollectionFile(u.client, r.output_uuid, 'sorted.txt')).toBe('a\nb\nc\n');
    const log = await readCollectionFile(u.client, r.log_uuid, 'runner.txt');
    expect(log).toContain(`output was set by the container: ${c.output}`);
    // the step was the runner's child, found by its image name
    const children = await u.client.api.containerRequests.list({
      filters: [['requesting_container_uuid', '=', c.uuid]],
    });
    expect(children.items.map((i) => [i.name, i.container_image])).toEqual([['step sort', IMAGE]]);
  });

  describe('collection mounts read as checked streams (execution.md §3.3)', () => {
    /** A collection of one file of `size` distinct random bytes; answers its PDH and MD5. */
    async function bigCollection(size: number): Promise<{ pdh: string; md5: string }> {
      const path = join(home, 'big.bin');
      const out = createWriteStream(path);
      const hash = createHash('md5');
      for (let at = 0; at < size; at += MiB) {
        const piece = randomBytes(Math.min(MiB, size - at));
        hash.update(piece);
        if (!out.write(piece)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      const store = new CollectionStore(u.client);
      const root = newDir();
      root.children.set('big.bin', await store.storeFile(path, size));
      rmSync(path);
      const rec = await store.create({ manifest_text: serializeManifestTree(root) });
      return { pdh: rec['portable_data_hash'], md5: hash.digest('hex') };
    }

    /** The pid of the runner process of container `uuid`, from the dispatcher's state file. */
    function runnerPid(uuid: string): number | null {
      for (const ext of ['json', 'done']) {
        try {
          const file = join(local.stateDir, 'runners', `${uuid}.${ext}`);
          return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
        } catch {
          /* not yet, or already renamed */
        }
      }
      return null;
    }
    /** The peak memory of a process (VmHWM). */
    const peakBytes = (pid: number): number =>
      Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

    it('a 300 MiB input file is read with the runner under 150 MiB of memory', async () => {
      const big = await bigCollection(300 * MiB);
      const cr = await createRequest(
        u.client,
        busyboxRequest(
          IMAGE,
          'md5sum /in/big.bin > /out/sum.txt',
          { ram: 128 * MiB },
          {
            mounts: {
              '/out': { kind: 'tmp', capacity: MiB },
              '/in': { kind: 'collection', portable_data_hash: big.pdh },
            },
          },
        ),
      );
      const [pid, r] = await Promise.all([
        until('the runner', async () => runnerPid(cr.container_uuid), 60_000),
        finalRequest(d.current, cr.uuid),
      ]);
      expect(await readCollectionFile(u.client, r.output_uuid, 'sum.txt')).toBe(
        `${big.md5}  /in/big.bin\n`,
      );
      // the runner process (a worker that runs one container after another) still waits
      expect(peakBytes(pid)).toBeLessThan(150 * MiB);
    });

    /** A one-block collection whose copies on the first `n` volumes in read order are corrupt. */
    async function corruptCopies(text: string, n: number): Promise<{ pdh: string; hash: string }> {
      const saved = await saveFiles(u.client, { 'data.txt': text });
      const hash = md5(text);
      const order = rendezvousOrder(hash, ['vol0', 'vol1'], (v) => v);
      for (const vol of order.slice(0, n)) {
        const root = volumes[Number(vol.slice(3))]!;
        const file = filesUnder(root).find((f) => f.endsWith(hash))!;
        writeFileSync(join(root, file), Buffer.from(text.replace(/./g, 'x')));
      }
      return { pdh: saved.pdh, hash };
    }
    const reading = (pdh: string) =>
      busyboxRequest(
        IMAGE,
        'cat /in/data.txt > /out/data.txt',
        {},
        {
          container_count_max: 1,
          mounts: {
            '/out': { kind: 'tmp', capacity: MiB },
            '/in': { kind: 'collection', portable_data_hash: pdh },
          },
        },
      );

    it('a block whose first copy is corrupt is read from the other', async () => {
      const { pdh } = await corruptCopies('the other copy is good\n', 1);
      const r = await finalRequest(d.current, (await createRequest(u.client, reading(pdh))).uuid);
      expect(await readCollectionFile(u.client, r.output_uuid, 'data.txt')).toBe(
        'the other copy is good\n',
      );
    });

    it('a block no copy of which is good ends the container with the error', async () => {
      const { pdh, hash } = await corruptCopies('both copies go bad\n', 2);
      const cr = await createRequest(u.client, reading(pdh));
      const r = await finalRequest(d.current, cr.uuid);
      const c = await getContainer(d.current, cr.container_uuid);
      expect([r.output_uuid, c.state, c.runtime_status.error]).toEqual([
        null,
        'Cancelled',
        `block ${hash} is corrupt`,
      ]);
    });
  });

  it('a POST of a collection is not repeated after a 503: the runner never saves twice', async () => {
    const containerOf = (body: string) => /"container_uuid":"([^"]+)"/.exec(body)?.[1];
    let lost: string | undefined;
    proxy.lostAnswer = (path, body) => {
      const output = path.startsWith('/svc/v1/collections') && body.includes('"type":"output"');
      if (output) lost = containerOf(body);
      return output;
    };
    const cr = await createRequest(
      u.client,
      busyboxRequest(IMAGE, 'echo once > /out/x', {}, { container_count_max: 2 }),
    );
    const r = await finalRequest(d.current, cr.uuid);
    expect(proxy.lostAnswers).toBe(1);
    const first = await getContainer(d.current, lost!);
    expect([first.state, first.runtime_status.error]).toEqual([
      'Cancelled',
      expect.stringMatching(/^runner failed: .*503/),
    ]);
    // the write that went through is the only one that container made; its retry finished
    const outputs = await u.client.api.collections.list({
      filters: [
        ['properties.container_uuid', '=', lost!],
        ['properties.type', '=', 'output'],
      ],
    });
    expect(outputs.items.length).toBe(1);
    expect(await readCollectionFile(u.client, r.output_uuid, 'x')).toBe('once\n');
  });
});
