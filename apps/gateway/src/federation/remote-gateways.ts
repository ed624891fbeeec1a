import type { Config } from '@svc/config';
import { RemoteGateway } from './remote-gateway';

/**
 * The gateways of other deployments, as each cluster of this one knows them (its own
 * RemoteClusters entry: Host, Scheme, Insecure), one keep-alive client each.
 */
export class RemoteGateways {
  private readonly clients = new Map<string, RemoteGateway>();

  constructor(private readonly config: Readonly<Config>) {}

  from(cluster: string, remote: string): RemoteGateway {
    const key = `${cluster}>${remote}`;
    let client = this.clients.get(key);
    if (!client) {
      const entry = this.config.Clusters[cluster]!.RemoteClusters[remote];
      if (!entry) throw new Error(`${remote} is not a remote of ${cluster}`);
      client = new RemoteGateway(remote, entry, this.config.Gateway.RemoteTimeout * 1000);
      this.clients.set(key, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }
}
