import { connect } from 'node:net';

/**
 * Sends bytes over a fresh TCP connection and collects what comes back until the server closes
 * it or `waitMs` passes: for requests an HTTP client library will not send (lying lengths,
 * half-closed bodies, Expect: 100-continue step by step).
 */
export function rawExchange(
  url: string,
  steps: Array<string | Buffer | { waitFor: string } | { end: true }>,
  waitMs = 5000,
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const waiters: Array<{ text: string; resolve: () => void }> = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, waitMs);
    socket.on('data', (d) => {
      received += d.toString('latin1');
      for (const w of [...waiters]) if (received.includes(w.text)) w.resolve();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.on('connect', async () => {
      for (const step of steps) {
        if (typeof step === 'string' || Buffer.isBuffer(step)) socket.write(step);
        else if ('end' in step) socket.end();
        else if (!received.includes(step.waitFor))
          await new Promise<void>((r) => waiters.push({ text: step.waitFor, resolve: r }));
      }
    });
  });
}
