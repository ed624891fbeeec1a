import { ServiceUnavailableError } from '@svc/errors';
import { FairShare } from './fair-share';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

describe('FairShare', () => {
  it('lets one caller hold at most its share; others are not held back by it', async () => {
    const share = new FairShare(2, 1_000);
    const g = gate();
    const running: string[] = [];
    const work = (caller: string, tag: string) =>
      share.run(caller, async () => {
        running.push(tag);
        if (caller === 'heavy') await g.opened;
        return tag;
      });
    const heavy = ['h1', 'h2', 'h3'].map((t) => work('heavy', t));
    expect(await work('light', 'l1')).toBe('l1');
    expect(running).toEqual(['h1', 'h2', 'l1']); // h3 waits for one of heavy's own sessions
    g.open();
    expect(await Promise.all(heavy)).toEqual(['h1', 'h2', 'h3']);
  });

  it('answers 503 to a caller that waited longer than the wait timeout for its share', async () => {
    const share = new FairShare(1, 20);
    const g = gate();
    const held = share.run('a', () => g.opened);
    await expect(share.run('a', async () => 'never')).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    g.open();
    await held;
    expect(await share.run('a', async () => 'after')).toBe('after');
  });
});
