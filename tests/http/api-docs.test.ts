/** The API documents kept in docs/api/ are the ones the API table generates (`node scripts/api-docs.mjs`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configurationReference } from '@svc/config';
import { apiDocuments } from '@svc/contract';

it.each(Object.entries(apiDocuments()))('docs/api/%s is current', (name, doc) => {
  const kept = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'api', name), 'utf8'));
  expect(kept).toEqual(JSON.parse(JSON.stringify(doc)));
});

it('docs/api/configuration.md lists every configuration key as the schema has it', () => {
  const text = readFileSync(join(__dirname, '..', '..', 'docs', 'api', 'configuration.md'), 'utf8');
  expect(text).toContain(
    `<!-- generated: configuration keys -->\n${configurationReference()}\n<!-- end`,
  );
});
