/** One HTTP request as the client sends it, whatever carries it (undici in Node, fetch in a browser). */
export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** The answer to an Exchange: status, headers (lower-case names) and the body as text. */
export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What carries the client's requests: `undici` in Node.js, `fetch` in a browser. */
export interface Transport {
  send(exchange: Exchange): Promise<Reply>;
  close(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
