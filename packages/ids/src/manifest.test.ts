import { EMPTY_PDH, ManifestError, parseManifest, portableDataHash } from './manifest';

describe('manifests', () => {
  it('computes the contract example', () => {
    const m = parseManifest(
      '. acbd18db4cc2f85cedef654fccc4a4d8+3+A27f1c2a0e1b5d0f0@65f0a000 0:3:foo.txt\n',
    );
    expect(m.portable).toBe('. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:foo.txt\n');
    expect(m.stored).toBe('. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:foo.txt\n');
    expect(portableDataHash(m.portable)).toBe('83367e8913dcec0bf3fc25ed5a27eacb+49');
    expect(m.fileCount).toBe(1);
    expect(m.fileSizeTotal).toBe(3);
  });

  it('gives the empty collection its hash', () => {
    expect(portableDataHash(parseManifest('').portable)).toBe(EMPTY_PDH);
  });

  it('keeps non-permission hints in the stored form only', () => {
    const m = parseManifest(
      '. acbd18db4cc2f85cedef654fccc4a4d8+3+K@zzzzz 0:3:a 0:3:a\n./d acbd18db4cc2f85cedef654fccc4a4d8+3 0:1:b\n',
    );
    expect(m.stored).toContain('+3+K@zzzzz');
    expect(m.portable).not.toContain('+K');
    expect(m.fileCount).toBe(2);
    expect(m.fileSizeTotal).toBe(7);
  });

  it.each([
    'no newline',
    '. 0:3:foo.txt\n',
    '. acbd18db4cc2f85cedef654fccc4a4d8+3\n',
    'foo acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:a\n',
    './a/../b acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:a\n',
    '. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:\n',
    '. acbd18db4cc2f85cedef654fccc4a4d8+3  0:3:a\n',
  ])('rejects %p', (text) => {
    expect(() => parseManifest(text)).toThrow(ManifestError);
  });

  const L = 'acbd18db4cc2f85cedef654fccc4a4d8+3';
  const E = 'd41d8cd98f00b204e9800998ecf8427e+0';

  it.each([
    [
      `. ${L}+a123 0:3:a\n`,
      'line 1: invalid block locator "acbd18db4cc2f85cedef654fccc4a4d8+3+a123"',
    ],
    [
      `. ${L}+K@zz+x 0:3:a\n`,
      'line 1: invalid block locator "acbd18db4cc2f85cedef654fccc4a4d8+3+K@zz+x"',
    ],
    [
      `. ${L}+K.z 0:3:a\n`,
      'line 1: invalid block locator "acbd18db4cc2f85cedef654fccc4a4d8+3+K.z"',
    ],
    [`. ${L}+ 0:3:a\n`, 'line 1: invalid block locator "acbd18db4cc2f85cedef654fccc4a4d8+3+"'],
    [`. ${L}+1 0:3:a\n`, 'line 1: invalid block locator "acbd18db4cc2f85cedef654fccc4a4d8+3+1"'],
    [`. ${L} 0:3:../x\n`, 'line 1: invalid file name "../x"'],
    [`. ${L} 0:3:a//b\n`, 'line 1: invalid file name "a//b"'],
    [`. ${L} 0:3:./..\n`, 'line 1: invalid file name "./.."'],
    [`. ${L} 0:3:..\n`, 'line 1: invalid file name ".."'],
    [`. ${L} 0:3:a/..\n`, 'line 1: invalid file name "a/.."'],
    [`. ${L} 0:3:/a\n`, 'line 1: invalid file name "/a"'],
    [`. ${L} 0:3:a/\n`, 'line 1: invalid file name "a/"'],
    [`. ${L} 0:3:./a\n`, 'line 1: invalid file name "./a"'],
    [`. ${L} 0:3:.\n`, 'line 1: invalid file name "."'],
    [`. ${L} 0:3:a 0:1:.\n`, 'line 1: invalid file name "."'],
    [`. ${L} 0:3:\\056\\056/x\n`, 'line 1: invalid file name "\\056\\056/x"'],
    [`./\\056\\056 ${L} 0:3:x\n`, 'invalid stream name "./\\056\\056"'],
    // docs/api/other-resources.md §1: NUL never, control characters only as octal escapes
    [`. ${L} 0:3:a\\000b\n`, 'file name contains NUL'],
    [`./d\\000 ${L} 0:3:a\n`, 'file name contains NUL'],
    [`. ${L} 0:3:a\tb\n`, 'line 1: invalid file name "a\tb"'],
    [`. ${L} 0:3:a\x7fb\n`, 'line 1: invalid file name "a\x7fb"'],
    [`./d\r ${L} 0:3:a\n`, 'invalid stream name "./d\r"'],
  ])('rejects %p: %s', (text, detail) => {
    expect(() => parseManifest(text)).toThrow(new ManifestError(detail));
  });

  it.each([
    `. ${E} 0:0:.\n`,
    `./empty ${E} 0:0:.\n`,
    `./d ${E} 3:0:.\n`,
    `. ${L}+K@zzzzz+Ab_c-9+R9 0:3:a/b/c.txt\n`,
    `. ${L} 0:3:..a 0:3:a..b 0:3:.hidden 0:3:a\\040b\n`,
    `. ${L} 0:3:tab\\011and\\177del\n`,
  ])('accepts %p', (text) => {
    expect(() => parseManifest(text)).not.toThrow();
  });
});
