import { runInNewContext } from 'node:vm';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';

export interface Page {
  status: number;
  url: URL;
  location: URL | null;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Just enough of a browser for login redirects: one cookie jar, redirects followed by hand. */
export class Browser {
  private readonly jar = new Map<
    string,
    { host: string; path: string; name: string; value: string }
  >();

  private cookieHeader(url: URL): string {
    return [...this.jar.values()]
      .filter((c) => c.host === url.host && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(url: URL, setCookie: string | string[] | undefined): void {
    for (const line of setCookie === undefined ? [] : ([] as string[]).concat(setCookie)) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const expires = attrs.find((a) => /^expires=/i.test(a))?.slice(8);
      const key = `${url.host}|${path}|${name}`;
      if (expires && Date.parse(expires) < Date.now()) this.jar.delete(key);
      else this.jar.set(key, { host: url.host, path, name, value: pair!.slice(eq + 1) });
    }
  }

  async request(
    method: string,
    target: string | URL,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const url = new URL(target);
    const cookie = this.cookieHeader(url);
    const res = await undiciRequest(url, {
      method: method as 'GET' | 'POST',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    this.keep(url, res.headers['set-cookie']);
    const location = res.headers['location'];
    return {
      status: res.statusCode,
      url,
      location: typeof location === 'string' ? new URL(location, url) : null,
      headers: res.headers,
      text: await res.body.text(),
    };
  }
}

const decodeEntities = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/**
 * Goes through an OpenID provider's pages from `start`: follows redirects, fills the login form
 * with `account` and accepts the consent form, until a redirect for which `done` is true.
 * Returns that redirect's URL (not requested).
 */
export async function passProviderPages(
  browser: Browser,
  start: URL,
  account: string,
  done: (url: URL) => boolean,
): Promise<URL> {
  let page = await browser.request('GET', start);
  for (let step = 0; step < 20; step++) {
    if (page.location) {
      if (done(page.location)) return page.location;
      page = await browser.request('GET', page.location);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    if (page.status !== 200 || action === undefined)
      throw new Error(`provider page ${page.url}: ${page.status} ${page.text.slice(0, 300)}`);
    const fields: Record<string, string> = {};
    for (const m of page.text.matchAll(
      /<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g,
    ))
      fields[m[1]!] = decodeEntities(m[2]!);
    if (fields['prompt'] === 'login') Object.assign(fields, { login: account, password: 'any' });
    page = await browser.request('POST', new URL(decodeEntities(action), page.url), fields);
  }
  throw new Error('too many provider pages');
}

/**
 * Runs the script of the `/login` password form (auth.md §9.7) as a browser would, with a
 * minimal fake DOM and real HTTP: fills in the fields, submits, and reports where the page
 * sent the browser, or the error it showed.
 */
export async function runLoginForm(
  html: string,
  origin: string,
  username: string,
  password: string,
): Promise<{ assigned?: string; error?: string }> {
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  const returnTo = /name="return_to" value="([^"]*)"/.exec(html)?.[1];
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (script === undefined || returnTo === undefined || action === undefined)
    throw new Error('not the login form');
  return new Promise((resolve, reject) => {
    const error = {
      set textContent(text: string) {
        if (text !== '') resolve({ error: text });
      },
    };
    const elements = {
      return_to: { value: decodeEntities(returnTo) },
      username: { value: username },
      password: { value: password },
    };
    let submit: ((ev: { preventDefault(): void }) => void) | undefined;
    const form = {
      action: new URL(decodeEntities(action), origin).toString(),
      elements,
      addEventListener: (_: string, fn: typeof submit) => (submit = fn),
    };
    const context = {
      document: { getElementById: (id: string) => (id === 'login' ? form : error) },
      window: { location: { assign: (url: string) => resolve({ assigned: url }) } },
      fetch: undiciFetch,
      URL,
      JSON,
    };
    runInNewContext(script, context);
    submit!({ preventDefault: () => undefined });
    setTimeout(() => reject(new Error('the form did nothing')), 5000).unref();
  });
}
