import { UnprocessableError } from '@svc/errors';
import { collections, groups, links } from './registry';
import { validateAttributes } from './validate-attributes';

const messages = (fn: () => void): string[] => {
  try {
    fn();
    return [];
  } catch (e) {
    if (e instanceof UnprocessableError) return [...e.messages];
    throw e;
  }
};

const sorted = (fn: () => void): string[] => messages(fn).sort();

describe('validateAttributes', () => {
  it('accepts known attributes and silently ignored keys', () => {
    expect(
      messages(() =>
        validateAttributes(groups, {
          name: 'x',
          group_class: 'project',
          kind: 'whatever',
          etag: 1,
          href: null,
          can_write: 'x',
        }),
      ),
    ).toEqual([]);
  });

  it('lists every failed rule', () => {
    expect(
      sorted(() =>
        validateAttributes(collections, {
          bogus: 1,
          properties: [],
          replication_desired: 'two',
          trash_at: 'yesterday',
          storage_classes_desired: ['a', 3],
          name: 'n'.repeat(256),
        }),
      ),
    ).toEqual(
      [
        "Unknown attribute 'bogus' for collection",
        'name is too long (maximum is 255 characters)',
        'properties has an invalid type: hash required',
        'replication_desired has an invalid type: integer required',
        'storage_classes_desired must be an array of strings',
        'trash_at has an invalid type: datetime required',
      ].sort(),
    );
  });

  it('accepts null only where nullable', () => {
    expect(messages(() => validateAttributes(links, { name: null }))).toEqual([]);
    expect(messages(() => validateAttributes(links, { properties: null }))).toEqual([
      'properties has an invalid type: hash required',
    ]);
  });
});
