import { encodeQuery, SvcClient } from './client';

describe('SvcClient', () => {
  it('reads SVC_API_TOKEN when no token is given', () => {
    process.env['SVC_API_TOKEN'] = 'from-env';
    try {
      expect(new SvcClient('http://x').token).toBe('from-env');
      expect(new SvcClient('http://x', null).token).toBeNull();
      expect(new SvcClient('http://x', 't').token).toBe('t');
    } finally {
      delete process.env['SVC_API_TOKEN'];
    }
  });

  it('JSON-encodes non-string query values as generic clients do', () => {
    expect(encodeQuery({ limit: 5, select: ['uuid'], name: 'a b', skip: undefined })).toBe(
      '?limit=5&select=%5B%22uuid%22%5D&name=a+b',
    );
  });
});
