/**
 * Signing in to the web console through OpenID Connect in Chromium: the console sends the
 * browser to the gateway's /login, the provider's pages (a real provider, npm oidc-provider),
 * and back to the console's /token, which keeps the token and takes it out of the address bar.
 * From an origin that Login.TrustedClients does not list, the sign-in page says why it cannot
 * offer the redirect.
 */
import { createServer } from 'node:net';
import { useDeployment } from '../harness/deployment';
import type { HelperProcess } from '../harness/helper-process';
import { startOidcProvider } from '../harness/oidc';
import {
  checkScreen,
  describeInBrowser,
  launchConsoleBrowser,
  type ConsoleBrowser,
} from '../harness/console-browser';

jest.setTimeout(60_000);

const CLIENT = { id: 'svc-console-client', secret: 'svc-console-client-secret-0123456789' };
const ACCOUNTS = {
  olivia: { email: 'olivia@example.com', email_verified: true, name: 'Olivia Provider' },
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describeInBrowser('the web console: signing in with OpenID Connect', () => {
  let provider: HelperProcess<{ issuer: string }>;
  const gateway = { Listen: '' };
  beforeAll(async () => {
    gateway.Listen = `127.0.0.1:${await freePort()}`;
    provider = await startOidcProvider(CLIENT, ACCOUNTS);
  }, 30_000);
  afterAll(() => provider?.stop());
  const d = useDeployment({
    gateway,
    configure: (_id, c) => {
      c['Login'] = {
        OpenIDConnect: {
          Enable: true,
          Issuer: provider.info.issuer,
          ClientID: CLIENT.id,
          ClientSecret: CLIENT.secret,
        },
        TrustedClients: [`http://${gateway.Listen}`],
      };
      c['Users'] = { NewUsersAreActive: true };
    },
  });
  let b: ConsoleBrowser;
  beforeAll(async () => {
    b = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await b?.close();
  });

  it('goes to the provider and back, signed in, with no token left in the address bar', async () => {
    const { page, problems } = await b.open(d.current.url);
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await page.getByRole('textbox', { name: 'Password' }).waitFor({ state: 'detached' });
    expect(await checkScreen(page, 'sign-in-oidc')).toEqual([]);
    await page.getByRole('link', { name: 'Sign in with your identity provider' }).click();
    await page.locator('input[name=login]').fill('olivia');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(page.url()).not.toContain('api_token');
    await page.getByRole('button', { name: 'Olivia Provider' }).click();
    await page.getByText('olivia@example.com').waitFor();
    expect(problems).toEqual({ csp: [], errors: [] });
  });

  it('says why it cannot offer the redirect from an origin that is not trusted', async () => {
    const other = d.current.url.replace('127.0.0.1', 'localhost');
    const { page, problems } = await b.open(other);
    await page.goto('/sign-in');
    await page.getByText('Sign-in cannot return here').waitFor();
    await page.getByText(`does not list ${other} in Login.TrustedClients`).waitFor();
    expect(problems).toEqual({ csp: [], errors: [] });
  });
});
