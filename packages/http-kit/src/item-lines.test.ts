import { fromItemLines, toItemLines } from './item-lines';

describe('item lines', () => {
  it("carry each item's uuid, modified_at and exact JSON, line feeds and BigInts included", () => {
    const items = [
      { uuid: 'u1', modified_at: 't1', name: 'two\nlines\u2028', priority: 562948253421312001n },
      { uuid: 'u2', name: 'no time' },
      { kind: 'no uuid' },
    ];
    const text = toItemLines(items);
    expect(fromItemLines(text)).toEqual([
      {
        uuid: 'u1',
        modifiedAt: 't1',
        json: '{"uuid":"u1","modified_at":"t1","name":"two\\nlines\u2028","priority":562948253421312001}',
      },
      { uuid: 'u2', modifiedAt: null, json: '{"uuid":"u2","name":"no time"}' },
      { uuid: null, modifiedAt: null, json: '{"kind":"no uuid"}' },
    ]);
    expect(fromItemLines(toItemLines([]))).toEqual([]);
  });

  it('refuse text that is not such a page', () => {
    expect(() => fromItemLines('{"items":[]}')).toThrow();
    expect(() => fromItemLines('[["u1",null]]')).toThrow();
  });
});
