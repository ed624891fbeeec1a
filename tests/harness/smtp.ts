import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  /** Every envelope recipient (To and Bcc alike). */
  recipients: string[];
  subject: string;
  /** Headers and body as sent. */
  raw: string;
}

/**
 * A local SMTP server for the file's tests (started before the deployment, which is configured
 * with its `host:port`): every message it takes is kept in `received`.
 */
export function useSmtpServer(): { readonly address: string; received: ReceivedMail[] } {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  let address = '';
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          received.push({
            from,
            recipients: session.envelope.rcptTo.map((r) => r.address),
            subject,
            raw,
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return {
    get address() {
      return address;
    },
    received,
  };
}

/** Waits (briefly) for a message matching `match`: mail is sent after the answer. */
export async function mailMatching(
  received: ReceivedMail[],
  match: (m: ReceivedMail) => boolean,
  timeoutMs = 5000,
): Promise<ReceivedMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = received.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error('no such mail arrived');
    await new Promise((r) => setTimeout(r, 25));
  }
}
