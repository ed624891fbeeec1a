// Writes the generated API documents into docs/api/ (run after `pnpm build`): the OpenAPI 3.1
// document, the discovery document of a default cluster, and the table of configuration keys in
// configuration.md. A test checks they are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { apiDocuments } = require(join(root, 'packages', 'contract', 'dist', 'api-docs.js'));
const { configurationReference } = require(join(root, 'packages', 'config', 'dist', 'index.js'));
const configuration = join(root, 'docs', 'api', 'configuration.md');
const text = readFileSync(configuration, 'utf8');
const start = '<!-- generated: configuration keys -->\n';
const end = '<!-- end of generated -->';
writeFileSync(
  configuration,
  text.slice(0, text.indexOf(start) + start.length) +
    configurationReference() +
    '\n' +
    text.slice(text.indexOf(end)),
);
console.log('docs/api/configuration.md');
for (const [name, doc] of Object.entries(apiDocuments())) {
  writeFileSync(join(root, 'docs', 'api', name), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`docs/api/${name}`);
}
