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
});
