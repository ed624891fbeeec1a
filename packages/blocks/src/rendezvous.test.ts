import { createHash } from 'node:crypto';
import { rendezvousOrder, serviceKey } from './rendezvous';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('rendezvous order', () => {
  it('sorts by md5(hash + key), largest first', () => {
    const hash = 'acbd18db4cc2f85cedef654fccc4a4d8';
    const ids = ['vol-a', 'vol-b', 'vol-c', 'vol-d', 'vol-e'];
    const order = rendezvousOrder(hash, ids, (v) => v);
    const weights = order.map((v) => md5(hash + v));
    expect([...weights].sort().reverse()).toEqual(weights);
    expect(new Set(order)).toEqual(new Set(ids));
  });

  it('depends on the block, so blocks spread over volumes', () => {
    const ids = ['a', 'b', 'c'];
    const firsts = new Set(
      Array.from({ length: 50 }, (_, i) => rendezvousOrder(md5(String(i)), ids, (v) => v)[0]),
    );
    expect(firsts.size).toBe(3);
  });

  it('keys a service by the last 15 characters of its uuid', () => {
    expect(serviceKey('zzzzz-bi6l4-0123456789abcde')).toBe('0123456789abcde');
  });
});
