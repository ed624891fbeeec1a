import { uniqueVariant } from './unique-name';

const UUID = 'home1-j7d0g-0123456789abcde';

describe('the name ensure_unique_name gives (requests-and-errors.md §12)', () => {
  it.each([
    ['A Project', 'A Project (0123456789abcde)'],
    ['', ' (0123456789abcde)'],
    // The first 237 characters of the name, so the result stays within 255.
    ['x'.repeat(237), `${'x'.repeat(237)} (0123456789abcde)`],
    ['y'.repeat(255), `${'y'.repeat(237)} (0123456789abcde)`],
  ])('%p becomes %p', (name, renamed) => {
    expect(uniqueVariant(name, UUID)).toBe(renamed);
  });

  it('is at most 255 characters for any name of at most 255', () => {
    expect(uniqueVariant('z'.repeat(255), UUID)).toHaveLength(255);
  });
});
