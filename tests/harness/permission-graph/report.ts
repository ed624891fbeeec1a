/** The failure report of a graph: the problems, the model's state and the call log, with short names. */
import type { GraphModel } from './model';

export function graphReport(model: GraphModel, log: readonly string[], problems: string[]): string {
  const w = model.world();
  const names = model.names;
  const state = [
    `users: ${model.users.map((u) => `${u.name}${u.active ? '' : ' (inactive)'}${u.admin ? ' (admin)' : ''}`).join(', ')}`,
    `groups: ${w.groups.map((g) => `${names.get(g.uuid)} owner ${names.get(g.ownerUuid)}${g.trashed ? ' (trashed)' : ''}`).join(', ')}`,
    `collections: ${w.collections.map((c) => `${names.get(c.uuid)} owner ${names.get(c.ownerUuid)}`).join(', ')}`,
    `links: ${model.links.map((l) => `${names.get(l.tail)} ${l.name} ${names.get(l.head)}`).join(', ') || '(none)'}`,
  ];
  return [
    'permission model mismatch',
    ...problems.map((p) => `  - ${p}`),
    'state (the model):',
    ...state.map((s) => `  ${s}`),
    'API calls:',
    ...log.map((l) => `  ${l}`),
  ].join('\n');
}
