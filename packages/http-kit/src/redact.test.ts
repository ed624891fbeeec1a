import { REDACTED, redactText, redactUrl } from './redact';

const TOKEN = 'v2/home1-gj3su-0123456789abcde/3kf9sl2mv8dke0s9f8e7w6q5a4z3x2c1v0b9n8m7';

describe('redactUrl', () => {
  it.each([
    [
      `/svc/v1/groups?api_token=${encodeURIComponent(TOKEN)}&limit=1`,
      `/svc/v1/groups?api_token=${REDACTED}&limit=1`,
    ],
    ['/x?limit=1&access_token=abc', `/x?limit=1&access_token=${REDACTED}`],
    ['/login?code=abc&state=def', `/login?code=${REDACTED}&state=${REDACTED}`],
    [
      '/c=home1-4zz18-0123456789abcde/t=secret/dir/file',
      `/c=home1-4zz18-0123456789abcde/t=${REDACTED}/dir/file`,
    ],
    [
      '/acbd18db4cc2f85cedef654fccc4a4d8+3+Aabcdef0123@65f00000',
      `/acbd18db4cc2f85cedef654fccc4a4d8+3+A${REDACTED}`,
    ],
    [
      `/c%3Dhome1-4zz18-0123456789abcde/t%3D${encodeURIComponent(TOKEN)}/a.txt`,
      `/c%3Dhome1-4zz18-0123456789abcde/t%3D${REDACTED}/a.txt`,
    ],
    [
      `/c=home1-4zz18-0123456789abcde/t=${TOKEN}/a.txt`,
      `/c=home1-4zz18-0123456789abcde/t=${REDACTED}/home1-gj3su-0123456789abcde/${REDACTED}/a.txt`,
    ],
    [`/svc/v1/groups?api_token%3D${TOKEN.slice(-20)}`, `/svc/v1/groups?api_token%3D${REDACTED}`],
    ['/svc/v1/groups?limit=1', '/svc/v1/groups?limit=1'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactText', () => {
  it('removes bearer and v2 tokens from messages', () => {
    const out = redactText(`failed with Authorization: Bearer ${TOKEN} and ${TOKEN}`);
    expect(out).not.toContain('3kf9sl2mv8dke0s9f8e7w6q5a4z3x2c1v0b9n8m7');
  });
});
