import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostMount } from './mounts';
import { bwrapArgs } from './sandbox';

/** execution.md §3.3: a mount may lie below a directory the image already has. */
describe('bwrapArgs', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-sandbox-'));
    for (const d of ['bin', 'var/lib/app', 'var/log', 'usr/local/share', 'usr/lib', 'proc'])
      mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'var/lib/app/state'), 'kept');
    symlinkSync('lib', join(root, 'var/lib64'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const mount = (target: string, writable = false): HostMount => ({
    target,
    host: `/work/m${target.replace(/\//g, '_')}`,
    writable,
    kind: writable ? 'tmp' : 'json',
    excludeFromOutput: false,
  });
  const args = (mounts: HostMount[]) =>
    bwrapArgs({
      root,
      mounts,
      cwd: '/',
      env: {},
      command: ['true'],
      network: false,
      uid: 0,
      gid: 0,
      cgroupProcs: [],
    }).join(' ');

  it('binds the image read-only, whole top-level entries when no mount lies below them', () => {
    const a = args([mount('/out', true)]);
    expect(a).toContain(`--ro-bind ${root}/var /var`);
    expect(a).toContain(`--ro-bind ${root}/usr /usr`);
    expect(a).not.toContain('/proc /proc --');
    expect(a).toMatch(/--bind \/work\/m_out \/out --remount-ro \//);
  });

  it('makes the directories above a mount anew, with the rest of the image bound around it', () => {
    const a = args([mount('/var/lib/x/input.json'), mount('/usr/local/work', true)]);
    expect(a).not.toContain(`--ro-bind ${root}/var /var`);
    expect(a).toContain('--perms 755 --dir /var');
    expect(a).toContain('--perms 755 --dir /var/lib');
    expect(a).toContain(`--ro-bind ${root}/var/lib/app /var/lib/app`);
    expect(a).toContain(`--ro-bind ${root}/var/log /var/log`);
    expect(a).toContain('--symlink lib /var/lib64');
    expect(a).toContain('--perms 755 --dir /usr/local');
    expect(a).toContain(`--ro-bind ${root}/usr/local/share /usr/local/share`);
    expect(a).toContain(`--ro-bind ${root}/usr/lib /usr/lib`);
    // the mounts come after the image, the root is read-only last
    expect(a).toMatch(
      /--ro-bind \/work\/m_var_lib_x_input.json \/var\/lib\/x\/input.json --bind \/work\/m_usr_local_work \/usr\/local\/work --remount-ro \//,
    );
  });
});
