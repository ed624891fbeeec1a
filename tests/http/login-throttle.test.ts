/**
 * Throttling of failed password logins (Login.Throttle): past MaxFailuresPerUsername failures of
 * one username, or MaxFailuresPerAddress from one client address, within Window, a login is
 * refused with 429 in the contract's error shape, with Retry-After, before the password is
 * checked (a right one included). A success clears its username's count.
 */
import { useDeployment } from '../harness/deployment';
import { login } from '../harness/users';

const USERS = {
  alice: { Email: 'alice@example.com', Password: 'alice-pw' },
  bob: { Email: 'bob@example.com', Password: 'bob-pw' },
  carol: { Email: 'carol@example.com', Password: 'carol-pw' },
};
const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = {
      Test: { Enable: true, Users: USERS },
      Throttle: { MaxFailuresPerUsername: 3, MaxFailuresPerAddress: 8, Window: 600 },
    };
    c['Users'] = { NewUsersAreActive: true };
  },
});
const failed = (u: string) => [401, [`authentication failed for user "${u}"`]];
const THROTTLED = [429, ['Too many failed login attempts, try again later']];
const outcome = (res: { status: number; body: any }) => [res.status, res.body.errors];

describe('login throttle', () => {
  it('a success clears the username count', async () => {
    for (let i = 0; i < 2; i++)
      expect(outcome(await login(d.current, 'carol', 'x'))).toEqual(failed('carol'));
    expect((await login(d.current, 'carol', 'carol-pw')).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect(outcome(await login(d.current, 'carol', 'x'))).toEqual(failed('carol'));
  });

  it('refuses a username past its failures, even with the right password, in the error shape', async () => {
    for (let i = 0; i < 3; i++)
      expect(outcome(await login(d.current, 'alice', 'x'))).toEqual(failed('alice'));
    for (const password of ['x', 'alice-pw']) {
      const res = await login(d.current, 'alice', password);
      expect(outcome(res)).toEqual(THROTTLED);
      expect(res.body.error_token).toMatch(/^\d+\+[0-9a-f]{8}$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The same name in another case is the same account name.
    expect(outcome(await login(d.current, 'ALICE', 'alice-pw'))).toEqual(THROTTLED);
  });

  it('refuses a client address past its failures, whatever the username', async () => {
    // 4 (carol) + 3 (alice) counted so far; one more reaches 8.
    expect(outcome(await login(d.current, 'bob', 'x'))).toEqual(failed('bob'));
    expect(outcome(await login(d.current, 'bob', 'bob-pw'))).toEqual(THROTTLED);
    expect(outcome(await login(d.current, 'nobody', 'x'))).toEqual(THROTTLED);
  });

  it('leaves token-authenticated requests alone', async () => {
    expect((await d.current.root.request('GET', '/svc/v1/users/current')).status).toBe(200);
  });
});
