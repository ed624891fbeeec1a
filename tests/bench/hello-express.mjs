// The baselines of `pnpm bench`: a bare express 5 hello-world, and (given a database URL) a bare
// express 5 + node-postgres handler answering the same page of 100 collections a list through
// the gateway answers, run as its own child process so it competes for the CPU exactly as the
// gateway and the core do.
// Usage: node tests/bench/hello-express.mjs <host> <port> [<database url> <owner uuid>]
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

// tests/ does not depend on express; the gateway does, so take the very same copy it uses.
const require = createRequire(new URL('../../apps/gateway/package.json', import.meta.url));
const express = require('express');

const [host = '127.0.0.1', port = '0', databaseUrl, owner] = process.argv.slice(2);
const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});

if (databaseUrl) {
  const pg = createRequire(new URL('../../apps/core/package.json', import.meta.url))('pg');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // The columns a list renders by default (manifest_text left out), one prepared statement.
  const text = `SELECT uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name,
      description, properties, portable_data_hash, replication_desired, replication_confirmed,
      replication_confirmed_at, storage_classes_desired, storage_classes_confirmed,
      storage_classes_confirmed_at, trash_at, delete_at,
      (trash_at IS NOT NULL AND trash_at <= statement_timestamp()) AS is_trashed,
      version, uuid AS current_version_uuid, preserve_version, file_count, file_size_total
    FROM collections WHERE owner_uuid = $1 ORDER BY modified_at DESC, uuid LIMIT 100`;
  app.get('/rows', async (_req, res) => {
    const { rows } = await pool.query({ name: 'rows', text, values: [owner] });
    res.json({ kind: 'svc#collectionList', offset: 0, limit: 100, items: rows });
  });
}

const server = createServer(app);
server.keepAliveTimeout = 65_000; // as the gateway and the core
server.listen(Number(port), host, () => {
  process.stdout.write(`hello-express listening on ${host}:${server.address().port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
