import type { Exchange, Reply, Transport } from './exchange';

/**
 * The client's requests over the platform's `fetch` (browsers, Deno, Node's own fetch). Same-origin
 * requests need no CORS; the gateway answers CORS for the others (requests-and-errors §6).
 */
export function fetchTransport(
  fetchFn: typeof fetch = globalThis.fetch.bind(globalThis),
): Transport {
  return {
    async send(x: Exchange): Promise<Reply> {
      const res = await fetchFn(x.url, {
        method: x.method,
        headers: x.headers,
        ...(x.body !== undefined ? { body: x.body as RequestInit['body'] } : {}),
      });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      return { status: res.status, headers, text: await res.text() };
    },
    close: () => Promise.resolve(),
  };
}
