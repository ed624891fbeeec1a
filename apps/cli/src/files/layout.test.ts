import { planBlocks } from './layout';

describe('planBlocks', () => {
  it('packs small files into shared blocks and cuts large ones', () => {
    const { blocks, files } = planBlocks([3, 0, 10, 2], 4);
    expect(blocks.map((b) => b.size)).toEqual([4, 4, 4, 3]);
    expect(files[0]).toEqual([{ block: 0, offset: 0, length: 3 }]);
    expect(files[1]).toEqual([]);
    expect(files[2]).toEqual([
      { block: 0, offset: 3, length: 1 },
      { block: 1, offset: 0, length: 4 },
      { block: 2, offset: 0, length: 4 },
      { block: 3, offset: 0, length: 1 },
    ]);
    expect(files[3]).toEqual([{ block: 3, offset: 1, length: 2 }]);
    expect(blocks[3]!.pieces).toEqual([
      { file: 2, fileOffset: 9, length: 1 },
      { file: 3, fileOffset: 0, length: 2 },
    ]);
  });

  it('has no block for no bytes', () => {
    expect(planBlocks([0, 0], 4)).toEqual({ blocks: [], files: [[], []] });
  });
});
