import { SvcClient } from '@svc/client';

async function main() {
  // Host and token come from SVC_API_HOST and SVC_API_TOKEN.
  const svc = new SvcClient();
  const me = await svc.api.users.current();
  const project = await svc.api.groups.create({
    attributes: { name: 'Genome runs', group_class: 'project', description: 'Sequencing' },
    ensure_unique_name: true,
  });
  console.log(`${me.email} created ${project.uuid} (${project.name})`);
  await svc.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
