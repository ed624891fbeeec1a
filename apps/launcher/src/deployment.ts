import type { Logger } from 'pino';
import type { Config } from '@svc/config';
import { startCore, type Progress, type RunningCore } from '@svc/core';
import { startGateway, type RunningGateway } from '@svc/gateway';

export interface RunningDeployment {
  gateway: RunningGateway;
  cores: RunningCore[];
  close(): Promise<void>;
}

/** Every core of the configuration, then the gateway in front of them, in this process. */
export async function startDeployment(
  config: Readonly<Config>,
  logs: { core: Logger; gateway: Logger },
  progress?: Progress,
): Promise<RunningDeployment> {
  const cores: RunningCore[] = [];
  try {
    for (const cluster of Object.values(config.Clusters)) {
      cores.push(await startCore(cluster, logs.core, progress));
    }
    const gateway = await startGateway(
      config,
      Object.fromEntries(cores.map((c) => [c.clusterId, c.url])),
      logs.gateway,
    );
    return {
      gateway,
      cores,
      /** The gateway drains first (nothing new reaches the cores), then the cores and pools. */
      async close() {
        await gateway.close();
        await Promise.all(cores.map((c) => c.close()));
      },
    };
  } catch (err) {
    await Promise.all(cores.map((c) => c.close().catch(() => undefined)));
    throw err;
  }
}
