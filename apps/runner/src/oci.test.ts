import { imageTag, loadedImage, ociRunArgs, type OciSpec } from './oci';

/** execution.md §3.4 as podman and docker arguments: one builder, podman's extras only for it. */
const spec: OciSpec = {
  name: 'svc-zzzzz-dz642-000000000000001',
  image: imageTag('d41d8cd98f00b204e9800998ecf8427e+0'),
  mounts: [
    { target: '/out', host: '/w/out', writable: true, kind: 'tmp', excludeFromOutput: false },
    { target: '/in', host: '/w/in', writable: false, kind: 'collection', excludeFromOutput: false },
  ],
  cwd: '/out',
  envFile: '/w/engine.env',
  command: ['sh', '-c', 'echo hi'],
  network: false,
  ram: 67108864,
  vcpus: 2,
  cgroupParent: '/svc/x-1',
  stdin: false,
};

it('docker: limits, no network, mounts, read-only root, env file, the command as entrypoint', () => {
  expect(ociRunArgs('docker', spec, true)).toEqual([
    'run',
    '--name',
    spec.name,
    '--network',
    'none',
    '--memory',
    '67108864',
    '--memory-swap',
    '67108864',
    '--cpus',
    '2',
    '--cgroup-parent',
    '/svc/x-1',
    '--tmpfs',
    '/tmp',
    '--volume',
    '/w/out:/out:rw',
    '--volume',
    '/w/in:/in:ro',
    '--read-only',
    '--workdir',
    '/out',
    '--env-file',
    '/w/engine.env',
    '--entrypoint',
    'sh',
    spec.image,
    '-c',
    'echo hi',
  ]);
});

it('podman adds --replace, runc on cgroups v1 and explicit ulimits; API gives a network', () => {
  const args = ociRunArgs('podman', { ...spec, network: true, stdin: true }, true);
  expect(args.slice(0, 11)).toEqual([
    'run',
    '--name',
    spec.name,
    '--replace',
    '--runtime',
    'runc',
    '--ulimit',
    'nofile=20000:20000',
    '--ulimit',
    'nproc=32768:32768',
    '--interactive',
  ]);
  expect(args.slice(11, 13)).toEqual(['--network', 'bridge']);
  expect(ociRunArgs('podman', spec, false)).not.toContain('--runtime');
});

it('the image a load reports, named or not, as podman and docker print it', () => {
  expect(loadedImage('Loaded image: localhost/svc-image:ab\n')).toBe('localhost/svc-image:ab');
  expect(loadedImage('Loaded image(s): localhost/a:1,localhost/b:2\n')).toBe('localhost/a:1');
  expect(loadedImage('Loaded image ID: sha256:0e03\n')).toBe('sha256:0e03');
  expect(loadedImage('Getting image source signatures\n')).toBeUndefined();
});
