import { Agent, request } from 'undici';

/** An answer of the API: status, parsed JSON body (when JSON) and the text. */
export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** What the runner needs of an API client (`SvcClient` has the same shape). */
export interface ApiRequester {
  readonly baseUrl: string;
  readonly token: string | null;
  request(method: string, path: string, opts?: { json?: unknown }): Promise<ApiAnswer>;
}

/**
 * The connections of this process, shared by every client: a worker that runs one container
 * after another keeps its connections to the API open for the next (the token is a header
 * of each request, not a property of the connection).
 */
const agents = new Map<boolean, Agent>();
function sharedAgent(insecure: boolean): Agent {
  let agent = agents.get(insecure);
  if (!agent) {
    agent = new Agent({ ...(insecure ? { connect: { rejectUnauthorized: false } } : {}) });
    agents.set(insecure, agent);
  }
  return agent;
}

/**
 * A small HTTP client of the public API for the runner: the typed client loads the whole
 * contract at start, which a runner started for every container does not need (start-up time
 * counts toward commit → Running).
 */
export class ApiClient implements ApiRequester {
  readonly baseUrl: string;
  private readonly agent: Agent;

  constructor(
    host: string,
    readonly token: string | null,
    insecure = false,
  ) {
    this.baseUrl = (/^https?:\/\//i.test(host) ? host : `https://${host}`).replace(/\/+$/, '');
    this.agent = sharedAgent(insecure);
  }

  async request(method: string, path: string, opts: { json?: unknown } = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = {};
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await request(`${this.baseUrl}${path}`, {
          method: method as 'GET',
          headers,
          dispatcher: this.agent,
          ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
        });
        const text = await res.body.text();
        // a busy or restarting gateway: try again a few times, as the typed client does
        if ((res.statusCode === 502 || res.statusCode === 503) && attempt < 4) {
          await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
          continue;
        }
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        return { status: res.statusCode, body, text };
      } catch (err) {
        if (attempt >= 4) throw err;
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }
}
