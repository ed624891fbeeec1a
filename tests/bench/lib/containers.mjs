// Data and helpers of the containers benchmark: a million containers (and a request each) made
// with set-based SQL, and containers prepared through the API and the dispatch endpoints.
import { createHash, randomBytes } from 'node:crypto';

const UNIT = 2n ** 50n;

/**
 * Containers 1..count in a realistic mix of states (70 % Complete, of which 1 in 7 failed;
 * 15 % Cancelled; 10 % Queued; 3 % Running; 2 % Locked), each with its own reuse digest except
 * one in five, which shares it with another container (retries, use_existing=false). Complete
 * and Cancelled ones have log and output PDHs; one in five successful ones has its log and
 * output collections. Every container has one request (Committed when active, else Final).
 */
export async function generateContainers(gen, { count, image }) {
  const c = gen.c;
  const sys = gen.builtIns.systemUser;
  const digests = Math.round(count * 0.8);
  await gen.step('containers', async () => {
    const r = await gen.q(`
      INSERT INTO containers (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, state,
        started_at, finished_at, command, cwd, environment, output_path, container_image, mounts,
        runtime_constraints, scheduling_parameters, runtime_user_uuid, runtime_auth_scopes,
        priority, progress, exit_code, log, output, lock_count, reuse_digest)
      SELECT '${c}-dz642-' || pg_temp.id15('k' || i), '${sys}', t, t, '${sys}', st,
             CASE WHEN st IN ('Running', 'Complete', 'Cancelled') THEN t + interval '1 minute' END,
             CASE WHEN st IN ('Complete', 'Cancelled') THEN t + interval '1 hour' END,
             jsonb_build_array('run-pipeline', '--sample', 'sample-' || i), '/tmp', '{"LANG": "C.UTF-8"}',
             '/out', '${image}', '{"/out": {"kind": "tmp", "capacity": 1000000000}}',
             '{"API": false, "ram": 4000000000, "vcpus": 2, "keep_cache_ram": 0, "keep_cache_disk": 4000000000}',
             '{"partitions": [], "preemptible": false, "max_run_time": 0, "supervisor": false}',
             '${c}-tpzed-' || pg_temp.id15('u' || (i % 1000)), '["all"]',
             CASE WHEN st IN ('Queued', 'Locked', 'Running')
                  THEN (1 + i % 1000)::bigint * ${UNIT} - (extract(epoch FROM t) * 1000)::bigint ELSE 0 END,
             CASE st WHEN 'Complete' THEN 1 WHEN 'Running' THEN random() END,
             CASE WHEN st = 'Complete' THEN CASE WHEN i % 7 = 0 THEN 1 ELSE 0 END END,
             CASE WHEN st IN ('Complete', 'Cancelled') THEN md5('log' || i) || '+' || (1000 + i % 9000) END,
             CASE WHEN st = 'Complete' THEN md5('out' || i) || '+' || (1000 + i % 9000) END,
             CASE WHEN st = 'Queued' THEN 0 ELSE 1 END,
             encode(sha256(convert_to('digest ' || (i % ${digests}), 'UTF8')), 'hex')
        FROM (SELECT i, ${gen.time(`i::float8 / ${count}`, 0.1, 0.9)} AS t,
                     CASE WHEN i % 100 < 70 THEN 'Complete' WHEN i % 100 < 85 THEN 'Cancelled'
                          WHEN i % 100 < 95 THEN 'Queued' WHEN i % 100 < 98 THEN 'Running'
                          ELSE 'Locked' END AS st
                FROM generate_series(1, ${count}) i) s`);
    return r.rowCount;
  });
  await gen.step('container_requests', async () => {
    const r = await gen.q(`
      INSERT INTO container_requests (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid,
        state, container_uuid, container_count_max, container_count, command, container_image, cwd,
        output_path, mounts, runtime_constraints, scheduling_parameters, environment, priority,
        runtime_user_uuid, runtime_auth_scopes)
      SELECT '${c}-xvhdp-' || substr(k.uuid, 13), k.runtime_user_uuid, k.created_at, k.modified_at,
             k.runtime_user_uuid,
             CASE WHEN k.state IN ('Queued', 'Locked', 'Running') THEN 'Committed' ELSE 'Final' END,
             k.uuid, 3, 1, k.command, k.container_image, k.cwd, k.output_path, k.mounts,
             k.runtime_constraints, k.scheduling_parameters, k.environment,
             CASE WHEN k.state IN ('Queued', 'Locked', 'Running') THEN (k.priority / ${UNIT}) + 1 ELSE 0 END,
             k.runtime_user_uuid, k.runtime_auth_scopes
        FROM containers k`);
    return r.rowCount;
  });
  await gen.step('log and output collections', async () => {
    const r = await gen.q(`
      INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, name, portable_data_hash,
                               manifest_text, properties)
      SELECT '${c}-4zz18-' || pg_temp.id15(kind || k.uuid), k.runtime_user_uuid, k.finished_at,
             k.finished_at, kind || ' of ' || k.uuid, CASE kind WHEN 'log' THEN k.log ELSE k.output END,
             '', jsonb_build_object('type', kind, 'container_uuid', k.uuid)
        FROM containers k, (VALUES ('log'), ('output')) v(kind)
       WHERE k.state = 'Complete' AND k.exit_code = 0 AND hashtext(k.uuid) % 5 = 0`);
    return r.rowCount;
  });
}

/** A one-file manifest no other call shares. */
export function uniqueManifest(name = 'out.txt') {
  const content = randomBytes(8).toString('hex');
  const md5 = createHash('md5').update(content).digest('hex');
  return `. ${md5}+${content.length} 0:${content.length}:${name}\n`;
}

/** A committable request body whose command is `command`. */
export const requestBody = (image, command, extra = {}) => ({
  command,
  container_image: image,
  cwd: '/tmp',
  output_path: '/out',
  mounts: { '/out': { kind: 'tmp', capacity: 1000000 } },
  runtime_constraints: { ram: 1000000, vcpus: 1 },
  environment: { SAMPLE: command.join(' ') },
  priority: 500,
  state: 'Committed',
  ...extra,
});

/**
 * Runs a Queued container to Complete through the dispatch API, as a dispatcher and runner
 * would: lock, Running, log and output collections (saved by the admin: their locators name no
 * stored blocks), Complete with exit code 0.
 */
export async function runToComplete(http, adminToken, uuid) {
  const path = `/svc/v1/containers/${uuid}`;
  await http.ok('POST', `${path}/lock`, { token: adminToken });
  await http.ok('PUT', path, { token: adminToken, json: { container: { state: 'Running' } } });
  const saved = {};
  for (const kind of ['log', 'output']) {
    // The admin saves them: a non-admin's manifest needs locators signed by the block service
    // (storage.md §5), and these name no real blocks.
    const col = await http.ok('POST', '/svc/v1/collections', {
      token: adminToken,
      json: { collection: { manifest_text: uniqueManifest(`${kind}.txt`) } },
    });
    saved[kind] = col.body.portable_data_hash;
  }
  await http.ok('PUT', path, {
    token: adminToken,
    json: { container: { state: 'Complete', exit_code: 0, ...saved } },
  });
}
