import { formatTimestamp, parseTimestampInput, renderCanonical } from './time';

describe('timestamps', () => {
  it('renders 9 fractional digits', () => {
    expect(formatTimestamp('2024-05-01 12:00:00.123456+00')).toBe('2024-05-01T12:00:00.123456000Z');
    expect(formatTimestamp('2024-05-01 12:00:00+00')).toBe('2024-05-01T12:00:00.000000000Z');
    expect(formatTimestamp('2024-05-01 12:00:00.5+00')).toBe('2024-05-01T12:00:00.500000000Z');
  });

  it.each([
    ['2024-05-01', '2024-05-01T00:00:00.000000Z'],
    ['2024-05-01T12:30', '2024-05-01T12:30:00.000000Z'],
    ['2024-05-01T12:30:15Z', '2024-05-01T12:30:15.000000Z'],
    ['2024-05-01T12:30:15.123456789Z', '2024-05-01T12:30:15.123456Z'],
    ['2024-05-01T12:30:15.1+02:00', '2024-05-01T10:30:15.100000Z'],
    ['2024-05-01T00:30:00-01:30', '2024-05-01T02:00:00.000000Z'],
    ['0042-03-04T05:06:07Z', '0042-03-04T05:06:07.000000Z'],
  ])('accepts %s', (input, canonical) => {
    expect(parseTimestampInput(input)).toBe(canonical);
  });

  it.each(['', 'yesterday', '2024-02-30', '2024-13-01', '2024-05-01T25:00', '2024-05-01 12:00'])(
    'rejects %p',
    (input) => expect(parseTimestampInput(input)).toBeNull(),
  );

  it('renders the canonical form', () => {
    expect(renderCanonical('2024-05-01T12:30:15.123456Z')).toBe('2024-05-01T12:30:15.123456000Z');
  });
});
