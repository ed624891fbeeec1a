import {
  dirAt,
  escapeName,
  nodeAt,
  parseManifestTree,
  serializeManifestTree,
  treeSize,
  unescapeName,
  type FileNode,
} from './manifest-tree';

const A = 'acbd18db4cc2f85cedef654fccc4a4d8+3';
const B = '37b51d194a7513e45b56f6524f2d51f2+5';
const E = 'd41d8cd98f00b204e9800998ecf8427e+0';

describe('manifest trees', () => {
  it('maps files onto byte ranges of blocks, across block boundaries', () => {
    const root = parseManifestTree(`. ${A} ${B} 0:2:x 2:4:y 6:2:z\n`);
    expect((nodeAt(root, ['x']) as FileNode).segments).toEqual([
      { locator: A, offset: 0, length: 2 },
    ]);
    expect((nodeAt(root, ['y']) as FileNode).segments).toEqual([
      { locator: A, offset: 2, length: 1 },
      { locator: B, offset: 0, length: 3 },
    ]);
    expect(nodeAt(root, ['z'])).toMatchObject({
      size: 2,
      segments: [{ locator: B, offset: 3, length: 2 }],
    });
  });

  it('builds directories from stream names and names with slashes; keeps empty ones', () => {
    const root = parseManifestTree(`./a\\040b ${A} 0:3:c/d.txt\n./empty ${E} 0:0:.\n`);
    expect(nodeAt(root, ['a b', 'c', 'd.txt'])?.kind).toBe('file');
    expect(dirAt(root, ['empty'])?.children.size).toBe(0);
    expect(treeSize(root)).toBe(3);
  });

  it('concatenates repeated tokens of one file', () => {
    const root = parseManifestTree(`. ${A} ${B} 0:1:f 3:5:f\n`);
    expect(nodeAt(root, ['f'])).toMatchObject({ size: 6 });
  });

  it('writes back a manifest that parses to the same tree', () => {
    const text = `. ${A} ${B} 0:2:x 2:4:y 6:2:z\n./d ${A} 0:3:in\\040dir\n./d/e ${E} 0:0:.\n./f ${E} 0:0:empty\n`;
    const written = serializeManifestTree(parseManifestTree(text));
    expect(parseManifestTree(written)).toEqual(parseManifestTree(text));
    expect(written).toBe(
      `. ${A} ${B} 0:2:x 2:4:y 6:2:z\n./d ${A} 0:3:in\\040dir\n./d/e ${E} 0:0:.\n./f ${E} 0:0:empty\n`,
    );
    expect(serializeManifestTree(parseManifestTree(''))).toBe('');
  });

  it('escapes what cannot appear in a name', () => {
    expect(escapeName('a b\\c\td')).toBe('a\\040b\\134c\\011d');
    expect(unescapeName(escapeName('a b\\c\td'))).toBe('a b\\c\td');
    expect(escapeName('new\nline\x01\x1f\x7f~')).toBe('new\\012line\\001\\037\\177~');
  });
});
