import {
  bareLocator,
  formatLocator,
  isLocator,
  parseLocator,
  stripSignature,
  withoutHints,
} from './locator';

const H = 'acbd18db4cc2f85cedef654fccc4a4d8';

describe('locators', () => {
  it.each([
    [H, { hash: H, size: null, hints: [] }],
    [`${H}+3`, { hash: H, size: 3, hints: [] }],
    [`${H}+3+Afoo@1+Kbar`, { hash: H, size: 3, hints: ['Afoo@1', 'Kbar'] }],
    [`${H}+Afoo@1`, { hash: H, size: null, hints: ['Afoo@1'] }],
    [`${H}+0+Rzzzzz-a_b@c`, { hash: H, size: 0, hints: ['Rzzzzz-a_b@c'] }],
  ])('parses %s', (text, expected) => {
    expect(parseLocator(text)).toEqual(expected);
    expect(formatLocator(parseLocator(text)!)).toBe(text);
  });

  it.each([
    '',
    H.slice(1),
    H.toUpperCase(),
    `${H}+`,
    `${H}+3+`,
    `${H}+3+afoo`,
    `${H}+3+A foo`,
    `${H}+3+A.`,
    `${H}x`,
    `${H}+99999999999999999999`,
  ])('rejects %j', (text) => {
    expect(parseLocator(text)).toBeNull();
  });

  it('full locators need a size', () => {
    expect(isLocator(`${H}+3`)).toBe(true);
    expect(isLocator(H)).toBe(false);
    expect(isLocator(`${H}+3+K1`)).toBe(true);
  });

  it('strips permission hints only', () => {
    expect(stripSignature(`${H}+3+Aabc@1+Kx+Ady@2`)).toBe(`${H}+3+Kx`);
    expect(withoutHints(`${H}+3+Aabc@1+Kx`, () => true)).toBe(`${H}+3`);
    expect(bareLocator(parseLocator(`${H}+3+Kx`)!)).toBe(`${H}+3`);
  });
});
