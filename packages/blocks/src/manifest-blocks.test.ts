import {
  forEachBlockHash,
  manifestBlockHashes,
  manifestLocators,
  mapManifestLocators,
} from './manifest-blocks';

const A = 'acbd18db4cc2f85cedef654fccc4a4d8';
const B = '37b51d194a7513e45b56f6524f2d51f2';
const M = `. ${A}+3+Axx@1 ${B}+3 0:6:foo${A}+3\n./sub ${A}+3 0:3:b\\040c\n`;

describe('blocks of a manifest', () => {
  it('lists locators in order, as written', () => {
    expect([...manifestLocators(M)]).toEqual([`${A}+3+Axx@1`, `${B}+3`, `${A}+3`]);
    expect([...manifestLocators('')]).toEqual([]);
  });

  it('scans hashes, repeats included, never from file names', () => {
    const seen: string[] = [];
    forEachBlockHash(M, (h) => seen.push(h));
    expect(seen).toEqual([A, B, A]);
    expect([...manifestBlockHashes(M)]).toEqual([A, B]);
  });

  it('maps locators only', () => {
    expect(mapManifestLocators(M, (l) => l.slice(0, 34))).toBe(
      `. ${A}+3 ${B}+3 0:6:foo${A}+3\n./sub ${A}+3 0:3:b\\040c\n`,
    );
  });
});
