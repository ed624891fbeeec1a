#!/usr/bin/env node
// The installed `svc` command: runs the built CLI (apps/cli/dist, made by `pnpm build`).
require('../dist/main.js').main();
