import { findEndpoint } from '@svc/contract';
import { planRoute, type RoutingFacts } from './route';
import type { Topology } from './topology';

const remote = {
  Host: 'r.example',
  Proxy: true,
  Scheme: 'https' as const,
  Insecure: false,
  ActivateUsers: false,
};
const topology: Topology = {
  home: 'home1',
  cores: new Set(['home1', 'sib02']),
  remotes: new Map([
    [
      'home1',
      new Map([
        ['sib02', remote],
        ['rmt03', remote],
      ]),
    ],
    ['sib02', new Map([['home1', remote]])],
  ]),
};
const route = (resource: string, name: string, facts: Partial<RoutingFacts> = {}) =>
  planRoute(
    {
      endpoint: findEndpoint(resource, name),
      uuid: null,
      clusterId: null,
      forwardedFor: null,
      bypassFederation: false,
      ...facts,
    },
    topology,
  );

describe('planRoute: where a call goes (federation.md §2)', () => {
  it('sends calls on one object to the cluster of its uuid, ignoring cluster_id', () => {
    expect(
      route('groups', 'get', { uuid: 'sib02-j7d0g-012345678901234', clusterId: 'home1' }),
    ).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('links', 'update', { uuid: 'rmt03-o0j2j-012345678901234' })).toEqual({
      kind: 'remote',
      cluster: 'rmt03',
    });
    expect(route('collections', 'delete', { uuid: 'zz404-4zz18-012345678901234' })).toEqual({
      kind: 'no-proxy',
      cluster: 'zz404',
    });
  });

  it('sends groups/contents to cluster_id, else to the cluster of a group uuid, else home', () => {
    const contents = (facts: Partial<RoutingFacts>) => route('groups', 'contents', facts);
    expect(contents({ uuid: 'sib02-j7d0g-012345678901234' })).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(contents({ uuid: 'rmt03-j7d0g-012345678901234' })).toEqual({
      kind: 'remote',
      cluster: 'rmt03',
    });
    expect(contents({ uuid: 'zz404-j7d0g-012345678901234' })).toEqual({
      kind: 'no-proxy',
      cluster: 'zz404',
    });
    expect(contents({ uuid: 'rmt03-tpzed-012345678901234' })).toEqual({
      kind: 'core',
      cluster: 'home1',
    });
    expect(contents({})).toEqual({ kind: 'core', cluster: 'home1' });
    expect(contents({ uuid: 'home1-j7d0g-012345678901234', clusterId: 'sib02' })).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('groups', 'shared', { clusterId: 'rmt03' })).toEqual({
      kind: 'remote',
      cluster: 'rmt03',
    });
    expect(route('groups', 'shared')).toEqual({ kind: 'core', cluster: 'home1' });
  });

  it('sends creates and current calls to cluster_id when given, else home', () => {
    expect(route('groups', 'create', { clusterId: 'sib02' })).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('groups', 'create')).toEqual({ kind: 'core', cluster: 'home1' });
    expect(route('users', 'current', { clusterId: 'rmt03' })).toEqual({
      kind: 'remote',
      cluster: 'rmt03',
    });
    expect(route('users', 'current', { clusterId: 'zz404' })).toEqual({
      kind: 'no-proxy',
      cluster: 'zz404',
    });
  });

  it('sends a list with cluster_id there whole; without, it may be federated', () => {
    expect(route('links', 'list', { clusterId: 'rmt03' })).toEqual({
      kind: 'remote',
      cluster: 'rmt03',
    });
    expect(route('links', 'list')).toEqual({ kind: 'list' });
  });

  it('looks a portable data hash up at home first, then everywhere', () => {
    expect(route('collections', 'get', { uuid: 'd41d8cd98f00b204e9800998ecf8427e+0' })).toEqual({
      kind: 'pdh',
    });
  });

  it('never forwards a forwarded call again', () => {
    const facts = { forwardedFor: 'rmt03' };
    expect(route('groups', 'get', { ...facts, uuid: 'sib02-j7d0g-012345678901234' })).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('groups', 'get', { ...facts, uuid: 'rmt03-j7d0g-012345678901234' })).toEqual({
      kind: 'not-found',
    });
    expect(route('links', 'list', facts)).toEqual({ kind: 'core', cluster: 'home1' });
    expect(route('users', 'current', { ...facts, clusterId: 'zz404' })).toEqual({
      kind: 'core',
      cluster: 'home1',
    });
  });

  it('keeps bypass_federation calls at home', () => {
    expect(
      route('users', 'update', { bypassFederation: true, uuid: 'rmt03-tpzed-012345678901234' }),
    ).toEqual({ kind: 'core', cluster: 'home1' });
    expect(route('links', 'list', { bypassFederation: true })).toEqual({
      kind: 'core',
      cluster: 'home1',
    });
  });
});
