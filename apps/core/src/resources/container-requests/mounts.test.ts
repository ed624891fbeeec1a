import {
  commitMountsProblems,
  isAbsoluteTarget,
  mountsProblems,
  outputPathProblems,
} from './mounts';

const ok = (mounts: Record<string, unknown>, secrets: Record<string, unknown> = {}) =>
  expect(mountsProblems(mounts, secrets)).toEqual([]);

describe('mount targets (containers.md §3)', () => {
  it.each(['/out', '/a/b.txt', '/.hidden'])('accepts %s', (t) =>
    expect(isAbsoluteTarget(t)).toBe(true),
  );
  it.each(['/', 'out', '/a//b', '/a/./b', '/a/../b', '/a/', ''])('refuses %j', (t) => {
    expect(isAbsoluteTarget(t)).toBe(false);
    expect(mountsProblems({ [t]: { kind: 'tmp' } }, {})).toEqual([
      `mounts [${t}]: invalid target: must be stdin, stdout, stderr or an absolute path`,
    ]);
  });
});

describe('mount objects', () => {
  it('accepts every kind with its keys', () => {
    ok({
      '/c': {
        kind: 'collection',
        portable_data_hash: 'x+1',
        path: '/d',
        writable: true,
        exclude_from_output: false,
      },
      '/u': { kind: 'collection', uuid: 'home1-4zz18-aaaaaaaaaaaaaaa' },
      '/t': { kind: 'tmp', capacity: 10, device_type: 'ssd' },
      '/k': { kind: 'keep', exclude_from_output: true },
      '/g': { kind: 'git_tree', uuid: 'x', commit: 'a'.repeat(40), path: '/' },
      '/j': { kind: 'json', content: { a: [1] } },
      '/x': { kind: 'text', content: 'hi' },
      stdin: { kind: 'file', path: '/c/in.txt' },
      stdout: { kind: 'file', path: '/t/out.txt' },
      stderr: { kind: 'file', path: '/t/err.txt' },
    });
  });

  it.each([
    [{ '/a': 'tmp' }, 'mounts [/a]: must be a hash'],
    [{ '/a': ['tmp'] }, 'mounts [/a]: must be a hash'],
    [{ '/a': {} }, 'mounts [/a][kind]: unsupported value ""'],
    [{ '/a': { kind: '' } }, 'mounts [/a][kind]: unsupported value ""'],
    [{ '/a': { kind: 'nfs' } }, 'mounts [/a][kind]: unsupported value "nfs"'],
    [
      { '/a': { kind: 'tmp', capacity: '1' } },
      'mounts [/a][capacity]: incompatible value type: integer required',
    ],
    [
      { '/a': { kind: 'tmp', capacity: -1 } },
      'mounts [/a][capacity]: incompatible value type: integer required',
    ],
    [
      { '/a': { kind: 'collection', writable: 'yes' } },
      'mounts [/a][writable]: incompatible value type: boolean required',
    ],
    [
      { '/a': { kind: 'text', content: 5 } },
      'mounts [/a][content]: incompatible value type: string required',
    ],
    [
      { '/a': { kind: 'tmp', path: '/x' } },
      'mounts [/a][path]: parameter is not supported for a tmp mount',
    ],
    [
      { '/a': { kind: 'tmp', device_type: 'floppy' } },
      'mounts [/a][device_type]: unsupported value "floppy"',
    ],
    [
      { '/a': { kind: 'git_tree', commit: 'abc' } },
      'mounts [/a][commit]: must be a full 40-character commit hash',
    ],
    [
      { '/a': { kind: 'git_tree', commit: 'A'.repeat(40) } },
      'mounts [/a][commit]: must be a full 40-character commit hash',
    ],
    [
      { '/a': { kind: 'git_tree', commit: 'a'.repeat(40), path: '/x' } },
      'mounts [/a][path]: must be "/"',
    ],
    [{ stdout: { kind: 'tmp' } }, 'mounts [stdout][kind]: unsupported value "tmp"'],
    [{ stderr: { kind: 'json', content: {} } }, 'mounts [stderr][kind]: unsupported value "json"'],
    [{ stdin: { kind: 'tmp' } }, 'mounts [stdin][kind]: unsupported value "tmp"'],
  ])('%j → %s', (mounts, message) => {
    expect(mountsProblems(mounts, {})).toEqual([message]);
  });

  it('takes keys a kind lacks when their value is empty', () => {
    ok({ '/a': { kind: 'tmp', path: null, writable: false, uuid: '', x: 0, y: [], z: {} } });
  });
});

describe('secret mounts', () => {
  it('takes only json and text, at stdin or absolute targets', () => {
    ok({}, { '/s': { kind: 'text', content: 'x' }, stdin: { kind: 'json', content: [1] } });
    expect(mountsProblems({}, { '/x': { kind: 'tmp' } })).toEqual([
      'secret_mounts [/x][kind]: unsupported value "tmp"',
    ]);
    expect(mountsProblems({}, { stdout: { kind: 'text', content: 'x' } })).toEqual([
      'secret_mounts [stdout]: invalid target: must be stdin, stdout, stderr or an absolute path',
    ]);
  });

  it('conflicts with a non-secret mount at the same target', () => {
    expect(
      mountsProblems({ '/s': { kind: 'tmp' } }, { '/s': { kind: 'text', content: 'x' } }),
    ).toEqual(['secret_mounts [/s]: conflict with non-secret mounts']);
  });
});

describe('on commit', () => {
  it('file mounts name a path inside another mount target', () => {
    const mounts = { '/in': { kind: 'tmp' }, stdin: { kind: 'file', path: '/in/x' } };
    expect(commitMountsProblems(mounts, {}, '/in')).toEqual([]);
    expect(
      commitMountsProblems({ ...mounts, stdout: { kind: 'file', path: '/elsewhere' } }, {}, '/in'),
    ).toEqual(['mounts [stdout][path]: must be inside another mount target']);
    expect(commitMountsProblems({ '/in': { kind: 'file', path: '/in/x' } }, {}, '/in')).toEqual([
      'mounts [/in][path]: must be inside another mount target',
    ]);
    expect(
      commitMountsProblems(
        { stdin: { kind: 'file', path: '/s' } },
        { '/s': { kind: 'text', content: 'x' } },
        'stdin',
      ),
    ).toEqual([]);
  });

  it.each(['disk', 'ssd'])(
    'below a %s tmp output_path only collection mounts may sit',
    (device) => {
      const mounts = {
        '/out': { kind: 'tmp', device_type: device },
        '/out/data': { kind: 'collection', portable_data_hash: 'x+1' },
        '/out/scratch': { kind: 'tmp' },
        '/outside': { kind: 'tmp' },
      };
      expect(commitMountsProblems(mounts, {}, '/out')).toEqual([
        'mounts [/out/scratch]: only collection mounts may be placed below output_path',
      ]);
    },
  );

  it.each(['ram', 'network', undefined])('allows anything below a %s tmp output_path', (device) => {
    const mounts = {
      '/out': { kind: 'tmp', device_type: device },
      '/out/scratch': { kind: 'tmp' },
    };
    expect(commitMountsProblems(mounts, {}, '/out')).toEqual([]);
  });

  it('output_path is a mount target', () => {
    expect(outputPathProblems({ '/out': { kind: 'tmp' } }, '/out')).toEqual([]);
    expect(outputPathProblems({ '/out': { kind: 'tmp' } }, '/out/x')).toEqual([
      'output_path must be a mount target',
    ]);
  });
});
