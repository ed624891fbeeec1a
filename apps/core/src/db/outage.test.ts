import { DatabaseOutage } from './outage';

describe('DatabaseOutage', () => {
  it('logs an outage once when it starts and once when it ends, with the refusals', () => {
    const lines: [string, Record<string, unknown>][] = [];
    const log = {
      warn: (d: Record<string, unknown>, m: string) => lines.push([m, d]),
      info: (d: Record<string, unknown>, m: string) => lines.push([m, d]),
    };
    let now = 1_000;
    const outage = new DatabaseOutage(log, 'home1', () => now);
    outage.reachable();
    const refused = Object.assign(
      new Error('database "x" is not currently accepting connections\nat …'),
      {
        code: '55000',
      },
    );
    for (let i = 0; i < 500; i++) outage.refused(refused);
    now += 8_000;
    outage.reachable();
    outage.reachable();
    expect(lines).toEqual([
      [
        'database unreachable: requests are refused with 503 until it answers again',
        {
          cluster: 'home1',
          code: '55000',
          reason: 'database "x" is not currently accepting connections',
        },
      ],
      ['database reachable again', { cluster: 'home1', seconds: 8, refused: 500 }],
    ]);
  });
});
