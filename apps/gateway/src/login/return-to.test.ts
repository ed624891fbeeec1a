import { UnprocessableError } from '@svc/errors';
import { checkReturnTo, withApiToken } from './return-to';

const trusted = ['https://app.example.com', 'https://*.lab.example.org', 'http://localhost:3000'];
const err = (value: unknown): string => {
  try {
    checkReturnTo(value, trusted);
  } catch (e) {
    if (e instanceof UnprocessableError) return e.messages[0]!;
    throw e;
  }
  return 'ok';
};

describe('return_to', () => {
  it.each([
    'https://app.example.com/after/login?x=1',
    'https://app.example.com:443/',
    'https://a.lab.example.org/x',
    'https://b.c.lab.example.org/',
    'http://localhost:3000/cb',
  ])('accepts %s', (v) => expect(err(v)).toBe('ok'));

  it.each([
    'https://evil.example.com/',
    'http://app.example.com/',
    'https://app.example.com:8443/',
    'https://lab.example.org/',
    'https://evillab.example.org/',
    'https://user:pw@app.example.com/',
    'javascript:alert(1)',
    '/relative',
    'http://localhost:3001/',
  ])('refuses %s', (v) =>
    expect(err(v)).toBe('requesting site is not listed in Login.TrustedClients'),
  );

  it.each([undefined, ''])('requires it (%p)', (v) =>
    expect(err(v)).toBe('return_to parameter is required'),
  );

  it('adds api_token to the query', () => {
    expect(withApiToken(new URL('https://app.example.com/cb'), 'v2/a/b')).toBe(
      'https://app.example.com/cb?api_token=v2%2Fa%2Fb',
    );
    expect(withApiToken(new URL('https://app.example.com/cb?x=1'), 't')).toBe(
      'https://app.example.com/cb?x=1&api_token=t',
    );
  });
});
