import {
  remoteClusterOf,
  toLocalLocator,
  toLocalManifest,
  toRemoteLocator,
  toRemoteManifest,
} from './remote';

const H = 'acbd18db4cc2f85cedef654fccc4a4d8';
const SIG = 'a'.repeat(40) + '@7fffffff';

describe('+R rewriting', () => {
  it.each([
    [`${H}+3+A${SIG}`, `${H}+3+Rrmt02-${SIG}`],
    [`${H}+3+A${SIG}+Kx`, `${H}+3+Rrmt02-${SIG}+Kx`],
    [`${H}+3`, `${H}+3`],
  ])('%s ⇄ %s', (local, remote) => {
    expect(toRemoteLocator(local, 'rmt02')).toBe(remote);
    expect(toLocalLocator(remote, 'rmt02')).toBe(local);
  });

  it('leaves hints for other clusters alone', () => {
    const other = `${H}+3+Rothr1-${SIG}`;
    expect(toLocalLocator(other, 'rmt02')).toBe(other);
    expect(remoteClusterOf(other)).toBe('othr1');
    expect(remoteClusterOf(`${H}+3`)).toBeNull();
  });

  it('rewrites whole manifests and nothing else', () => {
    const local = `. ${H}+3+A${SIG} ${H}+3+A${SIG} 0:6:a${H}+3+A${SIG}\n./d ${H}+3+A${SIG} 0:3:b\n`;
    const remote = toRemoteManifest(local, 'rmt02');
    expect(remote).toBe(
      `. ${H}+3+Rrmt02-${SIG} ${H}+3+Rrmt02-${SIG} 0:6:a${H}+3+A${SIG}\n./d ${H}+3+Rrmt02-${SIG} 0:3:b\n`,
    );
    expect(toLocalManifest(remote, 'rmt02')).toBe(local);
  });
});
