import { toJson } from './json';

describe('toJson', () => {
  it('writes BigInt values as exact digits', () => {
    expect(toJson({ priority: 562948253421312000n, small: 5, s: 'x' })).toBe(
      '{"priority":562948253421312000,"small":5,"s":"x"}',
    );
    expect(toJson([-9223372036854775808n])).toBe('[-9223372036854775808]');
  });

  it('leaves strings that look like markers alone', () => {
    expect(toJson({ s: '\u0000big:12' })).toBe('{"s":"\\u0000big:12"}');
  });
});
