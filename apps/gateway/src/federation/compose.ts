import type { Config } from '@svc/config';
import { ProofSigner, proofKey, randomAlnum } from '@svc/ids';
import type { ValidToken } from '../auth/authenticate';
import { TokenCache } from '../auth/token-cache';
import { CoreClient } from '../core-client';
import { ITEM_LINES_TYPE, fromItemLines } from '@svc/http-kit';
import { ClusterCalls, type CoreLines } from './cluster-calls';
import { Federation } from './federation';
import { Identities, type CoreJson } from './identities';
import { passThrough } from './pass-through';
import { RemoteGateways } from './remote-gateways';
import { topologyOf } from './topology';

/** The gateway's view of the clusters: core clients, identities, federation, pass-through. */
export function composeFederation(
  config: Readonly<Config>,
  coreUrls: Readonly<Record<string, string>>,
  fallback?: (home: CoreClient) => ((token: string) => Promise<ValidToken | null>) | undefined,
) {
  const signer = new ProofSigner();
  const timeoutMs = config.Gateway.RemoteTimeout * 1000;
  const cores = new Map<string, CoreClient>();
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    const url = coreUrls[id] ?? `http://${cluster.Core.Listen}`;
    cores.set(
      id,
      new CoreClient(
        { clusterId: id, url, proofKey: proofKey(cluster.SystemRootToken), cluster },
        signer,
      ),
    );
  }
  const topology = topologyOf(config);
  const homeCore = cores.get(topology.home)!;
  const coreJson: CoreJson = async (cluster, endpointId, options, identity, requestId) => {
    const answer = await cores
      .get(cluster)!
      .call(
        endpointId,
        JSON.stringify({ identity, options }),
        requestId ?? `req-${randomAlnum(20)}`,
      );
    const text = await answer.body.text();
    try {
      return { status: answer.statusCode, body: JSON.parse(text) as unknown };
    } catch {
      return { status: answer.statusCode, body: null };
    }
  };
  const coreLines: CoreLines = async (cluster, endpointId, options, identity, requestId) => {
    const answer = await cores
      .get(cluster)!
      .call(endpointId, JSON.stringify({ identity, options, lines: true }), requestId);
    const text = await answer.body.text();
    if (answer.statusCode === 200 && answer.headers['content-type'] === ITEM_LINES_TYPE) {
      return { status: 200, body: null, items: fromItemLines(text) };
    }
    try {
      return { status: answer.statusCode, body: JSON.parse(text) as unknown };
    } catch {
      return { status: answer.statusCode, body: null };
    }
  };
  const cache = new TokenCache();
  const remotes = new RemoteGateways(config);
  const fallbackFn = fallback?.(homeCore);
  const identities = new Identities({
    config,
    topology,
    cores,
    cache,
    remotes,
    coreJson,
    ...(fallbackFn ? { fallback: fallbackFn } : {}),
  });
  const calls = new ClusterCalls({
    home: topology.home,
    cores: topology.cores,
    identities,
    coreJson,
    coreLines,
    remotes,
  });
  const federation = new Federation({ config, topology, cores, identities, calls, coreJson });
  return {
    cores,
    homeCore,
    cache,
    federation,
    identities,
    forward: passThrough(timeoutMs),
    fallback: fallbackFn,
    async close() {
      await Promise.all([...cores.values()].map((c) => c.close()));
      await remotes.close();
    },
  };
}
