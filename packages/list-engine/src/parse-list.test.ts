import { UnprocessableError } from '@svc/errors';
import { collections, links, users } from '@svc/contract';
import { parseListParams } from './parse-list';
import { parseOrder } from './parse-order';

const limits = { maxItemsPerResponse: 1000, maxFilterConditions: 1000 };
const error = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnprocessableError) return e.messages.join('|');
    throw e;
  }
  throw new Error('no error');
};
const orderOf = (entries?: unknown[]) =>
  parseOrder(collections, entries).map((k) => `${k.attribute} ${k.direction}`);

describe('parseListParams', () => {
  it('refuses more than maxFilterConditions conditions, filters and where together', () => {
    const few = { maxItemsPerResponse: 1000, maxFilterConditions: 3 };
    const cond = ['any', 'ilike', '%x%'];
    const expr = '(replication_desired > replication_confirmed)';
    expect(() => parseListParams(collections, { filters: [cond, cond, expr] }, few)).not.toThrow();
    expect(
      error(() => parseListParams(collections, { filters: [cond, cond, expr, cond] }, few)),
    ).toBe('too many filter conditions (at most 3)');
    const where = { name: 'a', owner_uuid: 'b' };
    expect(error(() => parseListParams(collections, { filters: [cond, cond], where }, few))).toBe(
      'too many filter conditions (at most 3)',
    );
  });

  it('applies the defaults', () => {
    const plan = parseListParams(collections, {}, limits);
    expect(plan).toMatchObject({
      limit: 100,
      offset: 0,
      select: null,
      distinct: false,
      count: 'exact',
    });
    expect(plan.order).toEqual([
      { attribute: 'modified_at', direction: 'desc' },
      { attribute: 'uuid', direction: 'asc' },
    ]);
  });

  it('clamps limit to MaxItemsPerResponse', () => {
    expect(parseListParams(collections, { limit: '5000' }, limits).limit).toBe(1000);
    expect(parseListParams(collections, { limit: 0 }, limits).limit).toBe(0);
  });

  it.each(['-8', '0x10', 'foo', '', '1234five', -8])('rejects limit %p and offset %p', (v) => {
    expect(error(() => parseListParams(collections, { limit: v }, limits))).toBe(
      'Invalid value for limit parameter',
    );
    expect(error(() => parseListParams(collections, { offset: v }, limits))).toBe(
      'Invalid value for offset parameter',
    );
  });

  it('validates count', () => {
    for (const v of [undefined, null, '', 'exact']) {
      expect(parseListParams(collections, { count: v }, limits).count).toBe('exact');
    }
    expect(parseListParams(collections, { count: 'none' }, limits).count).toBe('none');
    expect(error(() => parseListParams(collections, { count: 'some' }, limits))).toBe(
      "count parameter must be 'exact' or 'none'",
    );
  });

  it('validates select', () => {
    expect(parseListParams(links, { select: '["uuid","link_class"]' }, limits).select).toEqual([
      'uuid',
      'link_class',
    ]);
    expect(error(() => parseListParams(links, { select: '[]' }, limits))).toBe(
      'Attribute selection list cannot be empty',
    );
    expect(error(() => parseListParams(links, { select: ['bogus'] }, limits))).toBe(
      "Invalid attribute 'bogus' in select parameter",
    );
  });

  it('orders distinct lists by the selected attributes', () => {
    const plan = parseListParams(links, { select: ['link_class'], distinct: true }, limits);
    expect(plan.distinct).toBe(true);
    expect(plan.order).toEqual([{ attribute: 'link_class', direction: 'asc' }]);
    const two = parseListParams(
      links,
      { select: ['name', 'link_class'], distinct: 'true', order: ['link_class desc', 'uuid'] },
      limits,
    );
    expect(two.order.map((k) => `${k.attribute} ${k.direction}`)).toEqual([
      'link_class desc',
      'name asc',
    ]);
  });

  it('ignores distinct without select', () => {
    expect(parseListParams(users, { distinct: true }, limits).distinct).toBe(false);
  });
});

describe('parseOrder', () => {
  it('appends uuid asc and stops at the first uuid key', () => {
    expect(orderOf(['name'])).toEqual(['name asc', 'uuid asc']);
    expect(orderOf(['modified_at asc'])).toEqual(['modified_at asc', 'uuid asc']);
    expect(orderOf(['uuid desc', 'name'])).toEqual(['uuid desc']);
    expect(orderOf(['name DESC', 'name asc'])).toEqual(['name desc', 'uuid asc']);
    expect(orderOf(['collections.name'])).toEqual(['name asc', 'uuid asc']);
    expect(orderOf([])).toEqual(['modified_at desc', 'uuid asc']);
  });

  it.each([
    ['bogus', "Invalid order attribute 'bogus'"],
    ['properties', "Invalid order attribute 'properties'"],
    ['storage_classes_desired asc', "Invalid order attribute 'storage_classes_desired asc'"],
    ['groups.name', "Invalid order attribute 'groups.name'"],
    ['name sideways', "Invalid order direction 'name sideways'"],
    ['name asc please', "Invalid order direction 'name asc please'"],
  ])('rejects %p', (entry, message) => {
    expect(error(() => parseOrder(collections, [entry]))).toBe(message);
  });

  it('rejects non-string entries', () => {
    expect(error(() => parseOrder(collections, [5]))).toBe("Invalid order attribute '5'");
  });
});
