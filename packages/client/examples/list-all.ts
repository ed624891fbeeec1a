import { SvcClient } from '@svc/client';

async function main() {
  const svc = new SvcClient();
  // Every matching collection, page after page; a misspelled attribute does not compile.
  const collections = svc.api.collections.listAll({
    filters: [
      ['name', 'like', 'sample-%'],
      ['properties.lab', '=', 'east'],
    ],
    order: ['name'],
    select: ['name', 'portable_data_hash'],
  });
  for await (const c of collections) {
    console.log(`${c.name} ${c.portable_data_hash}`);
  }
  await svc.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
