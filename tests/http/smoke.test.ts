import { groups } from '@svc/contract';
import { useDeployment } from '../harness/deployment';

const d = useDeployment();

it('creates and reads a group through the gateway', async () => {
  const g = d.current.root.resource(groups);
  const created = await g.create({ name: 'P', group_class: 'project' });
  expect(created.status).toBe(200);
  const got = await g.get(created.body.uuid);
  expect(got.body.name).toBe('P');
});
