import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CONSOLE_DIR } from '@svc/gateway';
import chromiumSettings from './chromium.json';

/**
 * The web console's browser tests: Debian's chromium driven by playwright-core (no browser is
 * downloaded). On a machine without chromium the tests skip, naming the package to install; CI
 * sets SVC_REQUIRE_BROWSER_TESTS=1, and there they run or fail.
 */
/** Debian's chromium and its flags (shared with the console benchmark). */
export const CHROMIUM: string = chromiumSettings.executable;
export const browserAvailable = existsSync(CHROMIUM);
const required = process.env['SVC_REQUIRE_BROWSER_TESTS'] === '1';

/** `describe` when the browser tests can run (or must), else a visibly skipped describe. */
export function describeInBrowser(name: string, body: () => void): void {
  if (browserAvailable || required) describe(name, body);
  else describe.skip(`${name} [skipped: install the Debian package chromium]`, body);
}

const ARGS: string[] = chromiumSettings.args;

export const ARTIFACTS = join(__dirname, '..', 'console', 'artifacts');

/** The problems a page reported: CSP violations, uncaught errors, console errors. */
export interface PageProblems {
  csp: string[];
  errors: string[];
}

export interface ConsoleBrowser {
  browser: Browser;
  /** A fresh browser context (its own storage) with a page on the console's origin. */
  open(baseUrl: string): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }>;
  close(): Promise<void>;
}

/** Expected console errors: the failed requests a test provokes on purpose (401, 404). */
const EXPECTED_CONSOLE =
  /Failed to load resource: the server responded with a status of (401|404|422|403)/;

export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  if (!existsSync(join(CONSOLE_DIR, 'index.html')))
    throw new Error(`the console is not built (${CONSOLE_DIR}): run pnpm build`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    browser,
    async open(baseUrl) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1280, height: 800 },
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const problems: PageProblems = { csp: [], errors: [] };
      // only the console's own pages: an identity provider's pages are not ours to judge
      const ours = () => page.url().startsWith(new URL(baseUrl).origin);
      await page.exposeFunction('__reportCsp', (text: string) => {
        if (ours()) problems.csp.push(text);
      });
      await page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (e) =>
          window.__reportCsp(e.violatedDirective + ' ' + e.blockedURI));`,
      });
      page.on('pageerror', (err) => {
        if (ours()) problems.errors.push(`pageerror: ${err.message}`);
      });
      page.on('console', (m) => {
        if (m.type() === 'error' && ours() && !EXPECTED_CONSOLE.test(m.text()))
          problems.errors.push(`console: ${m.text()}`);
      });
      return { context, page, problems };
    },
    close: () => browser.close(),
  };
}

let axeSource: string | null = null;

/**
 * axe-core's checks on the page as it is: the serious and critical violations (rule, impact,
 * the first elements), which a test expects to be none.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/** A screenshot kept as a test artefact (tests/console/artifacts/<name>.png, not committed). */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Checks a screen as a person would meet it: settled, no serious accessibility violations, a
 * screenshot kept. Answers the violations (expected: none).
 */
export async function checkScreen(page: Page, name: string): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await keepScreenshot(page, name);
  return axeViolations(page);
}

/** Signs a context's console in with a token, as the pasted-token form would keep it. */
export async function signInWithToken(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript({
    content: `if (!localStorage.getItem('svc.console.token'))
      localStorage.setItem('svc.console.token', ${JSON.stringify(token)});`,
  });
}

export interface ConsoleSession {
  browser: ConsoleBrowser;
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
}

/**
 * One browser and one page for a test file, on the console at `baseUrl()` (read once the
 * servers run), signed in with `token()` when given; after each test, the page must have
 * reported no CSP violation and no error.
 */
export function useConsoleBrowser(
  baseUrl: () => string,
  token?: () => string,
): { readonly current: ConsoleSession } {
  const holder: { current?: ConsoleSession } = {};
  beforeAll(async () => {
    const browser = await launchConsoleBrowser();
    const opened = await browser.open(baseUrl());
    if (token) await signInWithToken(opened.context, token());
    holder.current = { browser, ...opened };
  });
  afterAll(async () => {
    await holder.current?.browser.close();
  });
  afterEach(() => {
    expect(holder.current?.problems).toEqual({ csp: [], errors: [] });
  });
  return {
    get current() {
      if (!holder.current) throw new Error('console browser not started');
      return holder.current;
    },
  };
}
