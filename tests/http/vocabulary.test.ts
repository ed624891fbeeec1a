/**
 * The properties vocabulary (docs/api/more-resources.md §13): the file, its endpoint and health check,
 * live changes, the properties check on writes, and the start-up checks of §15.
 */
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '@svc/config';
import { startTestDeployment, useDeployment } from '../harness/deployment';
import { answer } from '../harness/answers';
import { makeImage, uncommittedRequest } from '../harness/containers';
import { raw } from '../harness/storage';

const DIR = mkdtempSync(join(tmpdir(), 'svc-vocabulary-'));
const FILE = join(DIR, 'vocabulary.json');
const MANAGEMENT = 'management-token-of-the-vocabulary-test';
const EXAMPLE = {
  strict_tags: false,
  tags: {
    IDTAGIMPORTANCE: {
      strict: true,
      labels: [{ label: 'Importance' }, { label: 'Priority' }],
      values: {
        IDVALHIGH: { labels: [{ label: 'High' }] },
        IDVALLOW: { labels: [{ label: 'Low' }] },
      },
    },
    IDTAGCOMMENT: { labels: [{ label: 'Comment' }] },
  },
};
let tick = 0;
/** Writes the file with a modification time that moves forward (the server compares them). */
function writeVocabulary(text: string): void {
  writeFileSync(FILE, text);
  const when = new Date(Date.now() + ++tick * 2000);
  utimesSync(FILE, when, when);
}
writeVocabulary(JSON.stringify(EXAMPLE));

const d = useDeployment({
  configure: (_id, section) => {
    section['API'] = { VocabularyPath: FILE };
    section['ManagementToken'] = MANAGEMENT;
  },
});
const root = () => d.current.root;
const health = () =>
  raw(d.current.url, 'GET', '/_health/vocabulary', {
    headers: { authorization: `Bearer ${MANAGEMENT}` },
  });
const waitPastRecheck = () => new Promise((r) => setTimeout(r, 1100));

describe('the vocabulary endpoint (§13.1)', () => {
  it('needs no token and renders absent labels and values as null', async () => {
    for (const token of [null, 'ignored-token-0000000000000000000000']) {
      const res = await d.current.client(token).request('GET', '/svc/v1/vocabulary');
      expect([res.status, res.body]).toEqual([
        200,
        {
          kind: 'svc#vocabulary',
          strict_tags: false,
          tags: {
            IDTAGIMPORTANCE: {
              strict: true,
              labels: EXAMPLE.tags.IDTAGIMPORTANCE.labels,
              values: EXAMPLE.tags.IDTAGIMPORTANCE.values,
            },
            IDTAGCOMMENT: { strict: false, labels: [{ label: 'Comment' }], values: null },
          },
        },
      ]);
    }
    const ok = await health();
    expect([ok.status, JSON.parse(ok.text)]).toEqual([200, { health: 'OK' }]);
  });
});

describe('properties checks (§13.2)', () => {
  const refused = (message: string) => [400, [message]];
  it('apply to collections, groups, links and container requests', async () => {
    const alias = refused('tag key "Priority" is an alias, must be provided as "IDTAGIMPORTANCE"');
    const bad = { Priority: 'IDVALHIGH' };
    const image = await makeImage(root());
    const writes: [string, string, Record<string, unknown>][] = [
      ['collections', 'collection', {}],
      ['groups', 'group', { group_class: 'project' }],
      ['links', 'link', { link_class: 'tag', name: 'x' }],
      ['container_requests', 'container_request', uncommittedRequest(image)],
    ];
    for (const [type, singular, base] of writes) {
      const create = await root().request('POST', `/svc/v1/${type}`, {
        json: { [singular]: { ...base, properties: bad } },
      });
      expect([type, ...answer(create)]).toEqual([type, ...alias]);
      const made = await root().request('POST', `/svc/v1/${type}`, {
        json: {
          [singular]: { ...base, properties: { IDTAGIMPORTANCE: 'IDVALLOW', Species: 'cat' } },
        },
      });
      expect([type, made.status]).toEqual([type, 200]);
      const update = await root().request('PUT', `/svc/v1/${type}/${made.body.uuid}`, {
        json: { [singular]: { properties: { IDTAGIMPORTANCE: 'Critical' } } },
      });
      expect([type, ...answer(update)]).toEqual([
        type,
        ...refused('tag value "Critical" is not valid for key "IDTAGIMPORTANCE"'),
      ]);
    }
    const other = await root().request('POST', '/svc/v1/container_requests', {
      json: { container_request: { ...uncommittedRequest(image), output_properties: bad } },
    });
    expect(other.status).toBe(200);
  });

  it('follow the file as it changes; an invalid file leaves the last valid one in force', async () => {
    writeVocabulary(JSON.stringify({ strict_tags: true, tags: { IDTAGONLY: {} } }));
    await waitPastRecheck();
    const strict = await root().request('POST', '/svc/v1/collections', {
      json: { collection: { properties: { Species: 'cat' } } },
    });
    expect(answer(strict)).toEqual(refused('tag key "Species" is not defined in the vocabulary'));
    writeVocabulary('{"strict_tags": true}');
    await waitPastRecheck();
    const sick = await health();
    expect([sick.status, JSON.parse(sick.text)]).toEqual([
      503,
      { health: 'ERROR', error: 'vocabulary is strict but no tags are defined' },
    ]);
    const still = await d.current.client(null).request('GET', '/svc/v1/vocabulary');
    expect(Object.keys(still.body.tags)).toEqual(['IDTAGONLY']);
    writeVocabulary(JSON.stringify(EXAMPLE));
    await waitPastRecheck();
    expect((await health()).status).toBe(200);
  });
});

describe('start-up checks (§15)', () => {
  it('refuse an invalid vocabulary file and a malformed default virtual machine, naming the key', async () => {
    const broken = join(DIR, 'broken.json');
    writeFileSync(broken, '{"tags": {"A": {}, "a": {}}}');
    await expect(
      startTestDeployment({ configure: (_id, s) => (s['API'] = { VocabularyPath: broken }) }),
    ).rejects.toThrow('Clusters.home1.API.VocabularyPath: duplicate tag key "a"');
    await expect(
      startTestDeployment({
        configure: (_id, s) => (s['API'] = { VocabularyPath: join(DIR, 'missing.json') }),
      }),
    ).rejects.toThrow('Clusters.home1.API.VocabularyPath');
    const config = (users: Record<string, unknown>) => ({
      Clusters: {
        home1: {
          SystemRootToken: 'a'.repeat(40),
          Database: { URL: 'pglite:memory' },
          Login: { Test: { Enable: true } },
          Users: users,
        },
      },
    });
    expect(() =>
      validateConfig(config({ AutoSetupNewUsersWithVmUUID: 'home1-tpzed-000000000000000' })),
    ).toThrow('Clusters.home1.Users.AutoSetupNewUsersWithVmUUID');
    const ok = validateConfig(config({}));
    expect(ok.Clusters['home1']!.Users.AutoSetupUsernameBlacklist).toEqual([
      'git',
      'root',
      'svc',
      'syslog',
    ]);
    expect(ok.Clusters['home1']!.Mail.SMTPServer).toBe('');
  });

  it('without a vocabulary file the vocabulary is empty, and the config endpoint hides the path', async () => {
    const plain = await startTestDeployment();
    try {
      const res = await plain.client(null).request('GET', '/svc/v1/vocabulary');
      expect(res.body).toEqual({ kind: 'svc#vocabulary', strict_tags: false, tags: {} });
    } finally {
      await plain.close();
    }
    const config = await d.current.client(null).request('GET', '/svc/v1/config');
    expect(JSON.stringify(config.body)).not.toContain('VocabularyPath');
    expect(config.body.Users).toBeUndefined();
  });
});
