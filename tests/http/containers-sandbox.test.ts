/**
 * execution.md §1: a dispatcher whose sandbox is not available locks nothing, says why once
 * in its log, and containers stay Queued.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequest, getContainer, makeImage } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { startLocalDispatcher } from '../harness/run-images';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser } from '../harness/users';

let local: Awaited<ReturnType<typeof startLocalDispatcher>> | undefined;
// declared before the deployment's own hook, so that it runs first (hooks run in order)
afterAll(async () => {
  await local?.dispatcher.stop();
  local?.cleanup();
});
const d = useDeployment(withVolumes(volumeDirs(1)));

it('an engine that is not available: nothing is locked, the reason is logged once', async () => {
  const u = await makeUser(d.current);
  // never run: any readable collection will do (no image needs building on this machine)
  const image = await makeImage(u.client);
  const lines: string[] = [];
  // an engine the machine does not have: the PATH it is looked up in holds no such program
  const noEngine = mkdtempSync(join(tmpdir(), 'svc-no-engine-'));
  local = await startLocalDispatcher(d.current, undefined, { RuntimeEngine: 'docker' }, undefined, {
    log: (l: string) => lines.push(l),
    engineEnv: { PATH: noEngine },
  });
  rmSync(noEngine, { recursive: true });
  const cr = await createRequest(u.client, {
    command: ['true'],
    container_image: image,
    cwd: '/',
    output_path: '/out',
    mounts: { '/out': { kind: 'tmp', capacity: 1000000 } },
    runtime_constraints: { ram: 64 * 1024 * 1024, vcpus: 1 },
    priority: 1,
    state: 'Committed',
  });
  await local.dispatcher.tick();
  await local.dispatcher.tick();
  const c = await getContainer(d.current, cr.container_uuid);
  expect([c.state, c.lock_count]).toEqual(['Queued', 0]);
  expect(lines).toEqual(['locks nothing: docker is not available: spawnSync docker ENOENT']);
});
