import { topLevelPriority } from './priority';

describe('container priority (containers.md §7)', () => {
  it('is priority × 2^50 − created_at in ms, exactly', () => {
    expect(topLevelPriority(500, 1700000000000)).toBe(562948253421312000n);
  });

  it('orders requests by priority, then earlier submission', () => {
    expect(topLevelPriority(10, 1700000000000)).toBeGreaterThan(topLevelPriority(5, 1600000000000));
    expect(topLevelPriority(5, 1600000000000)).toBeGreaterThan(topLevelPriority(5, 1700000000000));
    expect(topLevelPriority(1, Date.now())).toBeGreaterThan(0n);
  });
});
