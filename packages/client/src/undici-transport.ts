import type { Dispatcher } from 'undici';
import type { Exchange, Reply, Transport } from './exchange';
import { request } from './transport';

/** The client's requests over an undici dispatcher (a pool of keep-alive connections). */
export class UndiciTransport implements Transport {
  constructor(readonly dispatcher: Dispatcher) {}

  async send(x: Exchange): Promise<Reply> {
    const res = await request(x.url, {
      method: x.method as Dispatcher.HttpMethod,
      headers: x.headers,
      body: x.body,
      dispatcher: this.dispatcher,
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
