import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';

export interface MailMessage {
  from: string;
  to: readonly string[];
  bcc?: readonly string[];
  subject: string;
  text: string;
}

/**
 * Mail through the configured SMTP relay (`Mail.SMTPServer`, no authentication). Sending never
 * fails a request: a failure is logged. No relay, or nobody to send to, means nothing is sent.
 */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    cluster: Readonly<ClusterConfig>,
    private readonly log: Logger,
  ) {
    const server = cluster.Mail.SMTPServer;
    const i = server.lastIndexOf(':');
    this.transport =
      server === ''
        ? null
        : nodemailer.createTransport({
            host: server.slice(0, i).replace(/^\[(.*)\]$/, '$1'),
            port: Number(server.slice(i + 1)),
            secure: false,
            // A relay on a trusted network: take STARTTLS when offered, without insisting.
            tls: { rejectUnauthorized: false },
          });
  }

  /** Resolves when the relay took the message, or the failure was logged. */
  async send(message: MailMessage): Promise<void> {
    if (this.transport === null || message.to.length === 0) return;
    try {
      await this.transport.sendMail({
        from: message.from,
        to: [...message.to],
        ...(message.bcc && message.bcc.length > 0 ? { bcc: [...message.bcc] } : {}),
        subject: message.subject,
        text: message.text,
      });
    } catch (err) {
      this.log.warn({ error: (err as Error).message, subject: message.subject }, 'mail not sent');
    }
  }

  close(): void {
    this.transport?.close();
  }
}
