import type { Config } from '@svc/config';
import { ProofSigner, proofKey, requestIdFrom } from '@svc/ids';
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
  // a core's answer, parsed (null when it is not JSON: the caller reports the status)
  const jsonAnswer = (status: number, text: string) => {
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      return { status, body: null };
    }
  };
  const askCore = async (cluster: string, endpointId: string, body: object, requestId: string) => {
    const answer = await cores.get(cluster)!.call(endpointId, JSON.stringify(body), requestId);
    return { answer, text: await answer.body.text() };
  };
  const coreJson: CoreJson = async (cluster, endpointId, options, identity, requestId) => {
    // internal calls with no caller get a fresh id of the same form
    const id = requestIdFrom(requestId);
    const { answer, text } = await askCore(cluster, endpointId, { identity, options }, id);
    return jsonAnswer(answer.statusCode, text);
  };
  const coreLines: CoreLines = async (cluster, endpointId, options, identity, requestId) => {
    const body = { identity, options, lines: true };
    const { answer, text } = await askCore(cluster, endpointId, body, requestId);
    if (answer.statusCode === 200 && answer.headers['content-type'] === ITEM_LINES_TYPE) {
      return { status: 200, body: null, items: fromItemLines(text) };
    }
    return jsonAnswer(answer.statusCode, text);
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
