// The baseline of `pnpm bench`: a bare express 5 hello-world, run as its own child process so
// it competes for the CPU exactly as the gateway and the core do.
// Usage: node tests/bench/hello-express.mjs <host> <port>
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

// tests/ does not depend on express; the gateway does, so take the very same copy it uses.
const require = createRequire(new URL('../../apps/gateway/package.json', import.meta.url));
const express = require('express');

const [host = '127.0.0.1', port = '0'] = process.argv.slice(2);
const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});

const server = createServer(app);
server.keepAliveTimeout = 65_000; // as the gateway and the core
server.listen(Number(port), host, () => {
  process.stdout.write(`hello-express listening on ${host}:${server.address().port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
