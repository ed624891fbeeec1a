/**
 * execution.md §1: a dispatcher whose sandbox is not available locks nothing, says why once
 * in its log, and containers stay Queued.
 */
import { createRequest, getContainer } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { saveBusyboxImage, startLocalDispatcher } from '../harness/run-images';
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
  const image = await saveBusyboxImage(u.client);
  const lines: string[] = [];
  local = await startLocalDispatcher(d.current, undefined, { RuntimeEngine: 'podman' }, undefined, {
    log: (l: string) => lines.push(l),
  });
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
  expect(lines).toEqual([
    'locks nothing: runtime engine podman is not supported by this runner (bubblewrap is)',
  ]);
});
