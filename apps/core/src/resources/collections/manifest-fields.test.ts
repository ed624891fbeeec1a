import { UnprocessableError } from '@svc/errors';
import type { Row } from '../common/row';
import { applyManifest, isPortableDataHash } from './manifest-fields';

const SIGNED =
  '. acbd18db4cc2f85cedef654fccc4a4d8+3+A89118b78732c33104a4d6231e8b5a5fa1e4301e3@7fffffff 0:3:foo.txt\n';
const PORTABLE = '. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:foo.txt\n';
const PDH = '83367e8913dcec0bf3fc25ed5a27eacb+49';
const EMPTY_PDH = 'd41d8cd98f00b204e9800998ecf8427e+0';

/** The computed fields after a save of `input` onto `row`, or the 422 messages. */
function save(input: Record<string, unknown>, row: Row = {}): Row | readonly string[] {
  const next: Row = { ...row };
  try {
    applyManifest(input, next);
  } catch (e) {
    if (!(e instanceof UnprocessableError)) throw e;
    return e.messages;
  }
  const { manifest_text, portable_data_hash, file_count, file_size_total } = next;
  return { manifest_text, portable_data_hash, file_count, file_size_total };
}

describe('a collection manifest and its computed fields (other-resources.md §1)', () => {
  it.each<[string, Record<string, unknown>, Row]>([
    [
      'the example: hints removed, PDH of the portable manifest',
      { manifest_text: SIGNED },
      { manifest_text: PORTABLE, portable_data_hash: PDH, file_count: 1, file_size_total: 3 },
    ],
    [
      'the empty manifest',
      { manifest_text: '' },
      { manifest_text: '', portable_data_hash: EMPTY_PDH, file_count: 0, file_size_total: 0 },
    ],
    [
      'no manifest_text: the stored one',
      {},
      { manifest_text: PORTABLE, portable_data_hash: PDH, file_count: 1, file_size_total: 3 },
    ],
    [
      'a matching client PDH, whatever its hints',
      { manifest_text: SIGNED, portable_data_hash: `${PDH.slice(0, 32)}+7+Kzzzzz` },
      { manifest_text: PORTABLE, portable_data_hash: PDH, file_count: 1, file_size_total: 3 },
    ],
    [
      'distinct (stream, name) pairs counted once, every size summed',
      {
        manifest_text:
          '. acbd18db4cc2f85cedef654fccc4a4d8+3 0:1:a.txt 1:2:a.txt 0:3:b.txt\n./sub acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:a.txt\n',
      },
      expect.objectContaining({ file_count: 3, file_size_total: 9 }),
    ],
  ])('%s', (_rule, input, expected) => {
    expect(save(input, { manifest_text: PORTABLE })).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a PDH that is no locator',
      { portable_data_hash: 'nope' },
      'portable_data_hash is not a valid locator',
    ],
    [
      'a PDH with upper-case hex',
      { portable_data_hash: PDH.toUpperCase() },
      'portable_data_hash is not a valid locator',
    ],
    [
      'a PDH that does not match',
      { manifest_text: SIGNED, portable_data_hash: EMPTY_PDH },
      `portable_data_hash '${EMPTY_PDH}' does not match computed hash '${PDH}'`,
    ],
  ])('refuses %s: 422', (_rule, input, message) => {
    expect(save(input)).toEqual([message]);
  });

  it('refuses a manifest that does not parse: 422 "manifest_text is not a valid manifest: <detail>"', () => {
    const got = save({ manifest_text: '. nothex+3 0:3:foo.txt\n' });
    expect(got).toEqual([expect.stringMatching(/^manifest_text is not a valid manifest: \S/)]);
  });

  it.each([
    [PDH, true],
    [EMPTY_PDH, true],
    [`${PDH}+Kzzzzz`, false],
    ['home1-4zz18-012345678901234', false],
    ['83367e8913dcec0bf3fc25ed5a27eacb', false],
  ])('%p names a collection by PDH: %p', (id, pdh) => {
    expect(isPortableDataHash(id)).toBe(pdh);
  });
});
