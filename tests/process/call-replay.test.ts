/**
 * A signed gateway-to-core call is accepted once by its cluster, whatever happens to the core
 * processes in between (docs/adr/0017): the same bytes replayed to the running core, to a second
 * process on the same database, after a kill -9 and after a SIGTERM restart are all refused.
 */
import { request } from 'undici';
import { rootIdentity } from '@svc/contract';
import { PROOF_HEADER, PROOF_MAX_SKEW_MS, ProofSigner, proofKey } from '@svc/ids';
import { createClusterDatabase } from '../harness/database-target';
import { freePort } from '../harness/moto';
import {
  servingUrl,
  spawnLauncher,
  writeConfig,
  type LauncherProcess,
} from '../harness/launcher-process';

let db: Awaited<ReturnType<typeof createClusterDatabase>>;
const started: LauncherProcess[] = [];
beforeAll(async () => {
  db = await createClusterDatabase();
}, 30_000);
afterAll(async () => {
  for (const p of started) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
  await db.drop().catch(() => undefined);
});

/** A launcher whose core listens on `corePort`, once it serves. */
async function launch(corePort: number): Promise<{ process: LauncherProcess; url: string }> {
  const { file } = writeConfig(db.url, { cluster: { Core: { Listen: `127.0.0.1:${corePort}` } } });
  const p = spawnLauncher({ SVC_CONFIG: file });
  started.push(p);
  return { process: p, url: await servingUrl(p) };
}

const PATH = '/_call/svc.collections.create';
const NAME = `replayed-${Date.now()}`;

/** A create call as the gateway sends it: body, request id and proof, the bytes of the request. */
function signedCall(signer: ProofSigner, key: string, at: number, name: string) {
  const requestId = `req-${signer.sender}`;
  const body = JSON.stringify({
    identity: rootIdentity('home1'),
    options: { attributes: { description: name } }, // not unique: a replay would succeed
  });
  const proof = signer.sign(key, { method: 'POST', url: PATH, requestId, body }, at);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-request-id': requestId,
      [PROOF_HEADER]: proof,
    },
  };
}

const send = async (corePort: number, call: ReturnType<typeof signedCall>) => {
  const res = await request(`http://127.0.0.1:${corePort}${PATH}`, { method: 'POST', ...call });
  await res.body.dump();
  return res.statusCode;
};

it('refuses a captured call replayed to the running core, another process, after kill -9 and after a restart', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  let a = await launch(portA);
  const { rootToken } = writeConfig(db.url);
  const key = proofKey(rootToken);
  const signer = new ProofSigner();
  const signedAt = Date.now();
  const captured = signedCall(signer, key, signedAt, `${NAME}-a`);
  // Signed at the same moment and never sent until the end: proves the proofs were still fresh.
  const twin = signedCall(signer, key, signedAt, `${NAME}-b`);

  const statuses: Record<string, number> = {};
  statuses['first'] = await send(portA, captured);
  statuses['replay, running'] = await send(portA, captured);
  const b = await launch(portB);
  statuses['replay, second process'] = await send(portB, captured);
  b.process.child.kill('SIGTERM');
  await b.process.exited;
  a.process.child.kill('SIGKILL');
  await a.process.exited;
  a = await launch(portA);
  statuses['replay, after kill -9'] = await send(portA, captured);
  a.process.child.kill('SIGTERM');
  await a.process.exited;
  a = await launch(portA);
  statuses['replay, after restart'] = await send(portA, captured);
  expect(Date.now() - signedAt).toBeLessThan(PROOF_MAX_SKEW_MS);
  statuses['fresh twin'] = await send(portA, twin);

  expect(statuses).toEqual({
    first: 200,
    'replay, running': 401,
    'replay, second process': 401,
    'replay, after kill -9': 401,
    'replay, after restart': 401,
    'fresh twin': 200,
  });
  const listed = await request(
    `${a.url}/svc/v1/collections?filters=${encodeURIComponent(JSON.stringify([['description', 'like', `${NAME}%`]]))}`,
    { headers: { authorization: `Bearer ${rootToken}` } },
  );
  expect(((await listed.body.json()) as { items_available: number }).items_available).toBe(2);
}, 90_000);
