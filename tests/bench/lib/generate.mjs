// Set-based data generation (INSERT … SELECT … FROM generate_series) for the large-dataset
// benchmarks, on one node-postgres session of the bench database.
//
// Every object's uuid is a function of its kind and index (`<cluster>-<infix>-<15 chars>`, the
// 15 characters from md5 of a seed such as 'c123', see id15), so rows can name their owners and link ends
// by index without joins. Times run forward: users first, then projects (a parent is older than
// its children), then collections, each owned by something that existed when it was created.
// Text uses a vocabulary with a skewed (power-law) word frequency, so `ilike %word%` has
// realistic selectivity; properties have several keys with varied value types, present or not.
// The session's helper functions live in pg_temp and vanish with it.
import { dist, fmtInt, fmtSeconds, makeLog } from './common.mjs';

const log = makeLog('gen');

// ---------------------------------------------------------------- vocabulary

// Roughly in frequency order: words early in the list are drawn more often.
export const WORDS = `
sample sequencing genome analysis data reads alignment variant pipeline results
human mouse tumor normal control experiment batch run project cohort
quality report assembly reference expression single cell library protein
rnaseq exome whole panel coverage metrics filtered raw processed final
draft review archive backup output input intermediate temporary shared public
patient donor tissue blood plasma serum biopsy culture strain clone
chromosome region gene transcript isoform exon intron promoter enhancer methylation
variant calling somatic germline structural copy number fusion mutation allele
phasing imputation association linkage population ancestry admixture diversity selection evolution
microbiome metagenome taxonomy abundance community bacterial viral fungal isolate outbreak
imaging microscopy segmentation annotation labels training validation testing model weights
clinical trial phase screening enrollment followup outcome survival response treatment
dosage pharmacology toxicity compound library screen hit lead assay plate
spectrometry proteomics peptide lipidomics metabolomics chromatography peak spectrum ionization fragment
lab notebook protocol method standard operating procedure calibration instrument sensor
barcode demultiplex adapter trimming deduplication sorting indexing merging splitting compression
benchmark comparison evaluation summary overview dashboard figure table supplement manuscript
submission release version snapshot checkpoint rerun retry failed partial complete
nanopore pacbio illumina longread shortread hifi duplex ultima element singular
fastq bam cram vcf gvcf bed gff fasta parquet tsv
alpha beta gamma delta epsilon zeta theta kappa lambda sigma
north south east west central pacific atlantic alpine coastal urban
spring summer autumn winter monthly weekly daily nightly quarterly annual
pilot main extension replication followup longitudinal crosssectional baseline endpoint interim
`
  .trim()
  .split(/\s+/);

export const SPECIES = [
  'Homo sapiens',
  'Mus musculus',
  'Rattus norvegicus',
  'Danio rerio',
  'Drosophila melanogaster',
  'Caenorhabditis elegans',
  'Saccharomyces cerevisiae',
  'Escherichia coli',
  'Arabidopsis thaliana',
  'Gallus gallus',
  'Sus scrofa',
  'Bos taurus',
  'Canis lupus familiaris',
  'Macaca mulatta',
  'Pan troglodytes',
  'Xenopus laevis',
  'Oryza sativa',
  'Zea mays',
  'Plasmodium falciparum',
  'SARS-CoV-2',
];
export const STATUSES = ['raw', 'processing', 'processed', 'validated', 'failed', 'archived'];
export const LABS = Array.from({ length: 50 }, (_, i) => `lab-${String(i + 1).padStart(2, '0')}`);
export const FIRST = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Dorothy',
  'Edsger',
  'Frances',
  'Grace',
  'Hedy',
  'Ivan',
  'Jean',
  'Ken',
  'Leslie',
  'Margaret',
  'Niklaus',
  'Radia',
  'Sophie',
  'Tim',
  'Vint',
  'Whitfield',
];
export const LAST = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Hodgkin',
  'Dijkstra',
  'Allen',
  'Hopper',
  'Lamarr',
  'Sutherland',
  'Sammet',
  'Thompson',
  'Lamport',
  'Hamilton',
  'Wirth',
  'Perlman',
  'Wilson',
  'Berners-Lee',
  'Cerf',
  'Diffie',
];

const pgArray = (list) =>
  `ARRAY[${list.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]::text[]`;

// ---------------------------------------------------------------- SQL snippets

/** A vocabulary word, drawn with a power-law skew (higher = more skewed to the first words). */
const word = (skew = 1.8) => `v.w[1 + floor(power(random(), ${skew}) * cardinality(v.w))::int]`;
/** `n` words (n a SQL expression), space separated. */
const words = (n, rowSql, skew = 1.8) =>
  `array_to_string(ARRAY(SELECT ${word(skew)} FROM generate_series(1, ${n} + 0 * (${rowSql}))), ' ')`;

export const uuidSql = (c, infix, seedSql) => `'${c}-${infix}-' || pg_temp.id15(${seedSql})`;
export const userUuid = (c, idxSql) => uuidSql(c, 'tpzed', `'u' || (${idxSql})`);
export const groupUuid = (c, idxSql) => uuidSql(c, 'j7d0g', `'g' || (${idxSql})`);
export const collectionUuid = (c, idxSql) => uuidSql(c, '4zz18', `'c' || (${idxSql})`);

/** The same function in JavaScript, for picking objects by index after generation. */
import { createHash } from 'node:crypto';
export const id15 = (seed) =>
  createHash('md5')
    .update(seed)
    .digest('base64')
    .toLowerCase()
    .replace(/\+/g, 'x')
    .replace(/\//g, 'y')
    .slice(0, 15);
export const jsUserUuid = (c, i) => `${c}-tpzed-${id15(`u${i}`)}`;
export const jsGroupUuid = (c, i) => `${c}-j7d0g-${id15(`g${i}`)}`;
export const jsCollectionUuid = (c, i) => `${c}-4zz18-${id15(`c${i}`)}`;

// ---------------------------------------------------------------- the generator session

export class Generator {
  /** `client`: a node-postgres client on the bench database; `c`: the cluster id. */
  constructor(client, clusterId, { seed = 0.42 } = {}) {
    if (!/^[0-9a-z]{5}$/.test(clusterId)) throw new Error(`bad cluster id ${clusterId}`);
    this.db = client;
    this.c = clusterId;
    this.seed = seed;
    this.timings = {};
    const b = dist('packages/contract/dist/index.js').builtInUuids(clusterId);
    this.builtIns = b;
  }

  async q(text) {
    return this.db.query(text);
  }

  /** Times one step; the figure goes to `timings[name]` (ms). */
  async step(name, fn) {
    const t0 = performance.now();
    const result = await fn();
    const ms = performance.now() - t0;
    this.timings[name] = (this.timings[name] ?? 0) + ms;
    log(
      `${name}: ${fmtSeconds(ms)}${typeof result === 'number' ? ` (${fmtInt(result)} rows)` : ''}`,
    );
    return result;
  }

  async prepare() {
    await this.q(`SET synchronous_commit = off`);
    await this.q(`SET work_mem = '256MB'`);
    await this.q(`SET maintenance_work_mem = '1GB'`);
    await this.q(`SET TimeZone = 'UTC'`);
    // GIN entries (trigram, jsonb) go to the pending list and are merged in bulk by the VACUUM at
    // the end, instead of one by one: ~20 % faster loading; the indexes end up the same.
    await this.q(`SET gin_pending_list_limit = '1GB'`);
    await this.q(`SELECT setseed(${this.seed})`);
    // 15 characters of [0-9a-z] from md5(seed): base64, lower-cased, '+' and '/' mapped to x, y
    // (an inlinable SQL expression; ~78 bits, no collision in millions).
    await this.q(`
      CREATE FUNCTION pg_temp.id15(seed text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT substr(translate(lower(encode(decode(md5(seed), 'hex'), 'base64')), '+/', 'xy'), 1, 15)
      $$`);
    // Plain storage: the arrays stay uncompressed in the row, so subscripting them per generated
    // row does not decompress them each time (6x faster).
    await this.q(
      `CREATE TEMP TABLE vocab (w text[], sp text[], st text[], lab text[], fn text[], ln text[])`,
    );
    for (const col of ['w', 'sp', 'st', 'lab', 'fn', 'ln']) {
      await this.q(`ALTER TABLE vocab ALTER ${col} SET STORAGE plain`);
    }
    await this.q(`
      INSERT INTO vocab VALUES (${pgArray(WORDS)}, ${pgArray(SPECIES)}, ${pgArray(STATUSES)},
                                ${pgArray(LABS)}, ${pgArray(FIRST)}, ${pgArray(LAST)})`);
    // The time origin: three years ago. Users appear in the first 10 % of the span, groups and
    // collections after them, in index order.
    const { rows } = await this.q(
      `SELECT (date_trunc('second', now()) - interval '3 years')::text AS t0`,
    );
    this.t0 = rows[0].t0;
  }

  /** `created_at` for the fraction `fracSql` (0..1) of the span starting at `startShare`. */
  time(fracSql, startShare, share) {
    return `('${this.t0}'::timestamptz + (${startShare} + ${share} * (${fracSql})) * interval '3 years')`;
  }

  async builtInRows() {
    const b = this.builtIns;
    return this.step('built-ins', async () => {
      await this.q(`
        INSERT INTO users (uuid, owner_uuid, created_at, modified_at, username, is_admin, is_active)
        VALUES ('${b.systemUser}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'root', true, true),
               ('${b.anonymousUser}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'anonymous', false, false)`);
      await this.q(`
        INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, name, group_class)
        VALUES ('${b.systemGroup}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'System group', 'role'),
               ('${b.allUsersGroup}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'All users', 'role'),
               ('${b.anonymousGroup}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'Anonymous users', 'role')`);
      await this.q(`
        INSERT INTO links (uuid, owner_uuid, created_at, modified_at, link_class, name, tail_uuid, head_uuid)
        VALUES ('${b.anonymousMembership}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'permission', 'can_read',
                '${b.anonymousUser}', '${b.anonymousGroup}')`);
      await this.q(`
        INSERT INTO api_clients (uuid, owner_uuid, created_at, modified_at, name, is_trusted)
        VALUES ('${b.internalApiClient}', '${b.systemUser}', '${this.t0}', '${this.t0}', 'svc internal', true)`);
      await this.q(`
        INSERT INTO api_client_authorizations (uuid, owner_uuid, created_at, modified_at, api_client_uuid, scopes)
        VALUES ('${b.rootToken}', '${b.systemUser}', '${this.t0}', '${this.t0}', '${b.internalApiClient}', '["all"]')`);
    });
  }

  /**
   * Users 1..count: `user<i>`, active except every 25th, the first `admins` admins. Active users
   * get the server's all-users membership links (user → All users can_write, All users → user
   * can_read), as activation makes them.
   */
  async users({ count, admins = 0 }) {
    const c = this.c;
    const b = this.builtIns;
    this.userCount = count;
    const n = await this.step('users', async () => {
      const r = await this.q(`
        INSERT INTO users (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, email, username,
                           first_name, last_name, is_active, is_admin, prefs)
        SELECT ${userUuid(c, 'i')}, '${b.systemUser}', t, t + (now() - t) * power(random(), 6), '${b.systemUser}',
               'user' || i || '@example.com', 'user' || i,
               v.fn[1 + (i % cardinality(v.fn))], v.ln[1 + ((i / 7) % cardinality(v.ln))],
               (i % 25 <> 0) OR i <= ${admins}, i <= ${admins},
               CASE WHEN random() < 0.3 THEN '{"profile": {"organization": "Example"}}'::jsonb ELSE '{}' END
          FROM (SELECT i, ${this.time(`i::float8 / ${count}`, 0, 0.1)} AS t FROM generate_series(1, ${count}) i) s, vocab v`);
      return r.rowCount;
    });
    await this.step('links: all-users membership', async () => {
      const r = await this.q(`
        INSERT INTO links (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, link_class, name,
                           tail_uuid, head_uuid, properties)
        SELECT ${uuidSql(c, 'o0j2j', `'au' || k || '-' || u.uuid`)}, '${b.systemUser}', u.created_at, u.created_at,
               '${b.systemUser}', 'permission', CASE k WHEN 1 THEN 'can_write' ELSE 'can_read' END,
               CASE k WHEN 1 THEN u.uuid ELSE '${b.allUsersGroup}' END,
               CASE k WHEN 1 THEN '${b.allUsersGroup}' ELSE u.uuid END, '{}'
          FROM users u CROSS JOIN generate_series(1, 2) k
         WHERE u.is_active AND u.uuid LIKE '${c}-tpzed-%' AND u.uuid <> '${b.systemUser}'`);
      return r.rowCount;
    });
    return n;
  }

  /**
   * Groups 1..projects are projects (1..topLevel owned by a random user, the others by a random
   * earlier project: trees), then `roles` roles (owned by the system user), then `filters`
   * filter groups (owned by users). `trashedShare` of projects are trashed (a few more have a
   * future trash_at), within the last 10 days: none is past its delete_at (14 days on), so the
   * server's trash sweep deletes nothing while a benchmark measures.
   */
  async groups({ projects, topLevel, roles, filters, trashedShare = 0.005 }) {
    const c = this.c;
    const b = this.builtIns;
    const U = this.userCount;
    this.projectCount = projects;
    this.roleCount = roles;
    const total = projects + roles + filters;
    const props = `jsonb_strip_nulls(jsonb_build_object(
        'category', CASE WHEN random() < 0.6 THEN (ARRAY['research','clinical','core','training','external'])[1 + floor(random()*5)::int] END,
        'pi', CASE WHEN random() < 0.4 THEN v.ln[1 + floor(random() * cardinality(v.ln))::int] END,
        'grant', CASE WHEN random() < 0.3 THEN 'G-' || (1000 + floor(random() * 9000)::int) END,
        'lab', CASE WHEN random() < 0.5 THEN v.lab[1 + floor(random() * cardinality(v.lab))::int] END,
        'year', CASE WHEN random() < 0.5 THEN 2020 + floor(random() * 7)::int END))`;
    const batch = 100_000;
    let n = 0;
    for (let from = 1; from <= total; from += batch) {
      const to = Math.min(total, from + batch - 1);
      n += await this.step('groups', async () => {
        const r = await this.q(`
          INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class,
                              description, properties, trash_at, delete_at)
          SELECT ${groupUuid(c, 'g')}, owner, t, t + (now() - t) * power(random(), 4), mod_by,
                 CASE klass WHEN 'role' THEN 'Role ' || ${word()} || ' ' || g
                            WHEN 'filter' THEN 'Filter ' || ${word()} || ' ' || g
                            ELSE initcap(${word()}) || ' ' || ${word()} || ' ' || g END,
                 klass,
                 CASE WHEN random() < 0.5 THEN ${words('3 + floor(random() * 10)::int', 'g')} END,
                 ${props},
                 trash, CASE WHEN trash IS NOT NULL THEN trash + interval '14 days' END
            FROM (SELECT g, klass, t,
                         CASE WHEN klass = 'role' THEN '${b.systemUser}'
                              WHEN klass = 'filter' OR g <= ${topLevel} THEN ${userUuid(c, `1 + floor(random() * ${U})::int`)}
                              ELSE ${groupUuid(c, `1 + floor(random() * (g - 1))::int`)} END AS owner,
                         ${userUuid(c, `1 + floor(random() * ${U})::int`)} AS mod_by,
                         CASE WHEN klass <> 'project' THEN NULL
                              WHEN r < ${trashedShare} THEN now() - random() * interval '10 days'
                              WHEN r < ${trashedShare * 1.2} THEN now() + random() * interval '60 days' END AS trash
                    FROM (SELECT g, random() AS r,
                                 CASE WHEN g <= ${projects} THEN 'project'
                                      WHEN g <= ${projects + roles} THEN 'role' ELSE 'filter' END AS klass,
                                 CASE WHEN g <= ${projects} THEN ${this.time(`g::float8 / ${projects}`, 0.1, 0.85)}
                                      ELSE ${this.time('random()', 0.1, 0.85)} END AS t
                            FROM generate_series(${from}, ${to}) g) s0) s, vocab v`);
        return r.rowCount;
      });
    }
    return n;
  }

  /**
   * Collections 1..count. `homeShare` are owned by a user (home project); `hot` ({projects,
   * share}) go to the first few projects (big projects); the rest to a random project that
   * existed when the collection was made (older projects collect more).
   */
  async collections({ count, homeShare, hot = { projects: 0, share: 0 }, batch = 250_000 }) {
    const c = this.c;
    const U = this.userCount;
    const P = this.projectCount;
    const manifest = `'. ' || md5('blk' || m) || '+' || (sz1 + sz2) || ' 0:' || sz1 || ':' || fname
                       || CASE WHEN sz2 > 0 THEN ' ' || sz1 || ':' || sz2 || ':' || replace(fname, '.', '_2.') ELSE '' END || E'\\n'`;
    const props = `jsonb_strip_nulls(jsonb_build_object(
        'sample_id', CASE WHEN r1 < 0.7 THEN 'S' || lpad((1 + (i::bigint * 7919) % ${Math.max(1, Math.floor(count / 2))})::text, 7, '0') END,
        'species', CASE WHEN r2 < 0.6 THEN v.sp[1 + floor(power(random(), 2) * cardinality(v.sp))::int] END,
        'status', CASE WHEN r3 < 0.8 THEN v.st[1 + floor(power(random(), 1.5) * cardinality(v.st))::int] END,
        'lab', CASE WHEN r4 < 0.75 THEN v.lab[1 + floor(random() * cardinality(v.lab))::int] END,
        'batch', CASE WHEN r5 < 0.5 THEN 1 + floor(random() * 2000)::int END,
        'read_length', CASE WHEN r5 < 0.3 THEN (ARRAY[50, 75, 100, 150, 250])[1 + floor(random() * 5)::int] END,
        'tags', CASE WHEN r6 < 0.35 THEN to_jsonb(ARRAY[${word(1.5)}, ${word(1.5)}]) END,
        'reviewed', CASE WHEN r6 < 0.25 THEN random() < 0.5 END,
        'pipeline', CASE WHEN r1 > 0.8 THEN jsonb_build_object('name', ${word()}, 'version', '1.' || floor(random() * 20)::int) END))`;
    let n = 0;
    for (let from = 1; from <= count; from += batch) {
      const to = Math.min(count, from + batch - 1);
      n += await this.step('collections', async () => {
        const r = await this.q(`
          INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, description,
                                   properties, manifest_text, portable_data_hash, replication_desired,
                                   storage_classes_desired, trash_at, delete_at, file_count, file_size_total)
          SELECT ${collectionUuid(c, 'i')}, owner, t, t + (now() - t) * power(random(), 4), mod_by,
                 name, description, props, man, md5(man) || '+' || octet_length(man), repl, classes,
                 trash, CASE WHEN trash IS NOT NULL THEN trash + interval '14 days' END,
                 CASE WHEN sz2 > 0 THEN 2 ELSE 1 END, sz1 + sz2
            FROM (SELECT i, t, sz1, sz2, owner, mod_by,
                         initcap(${word()}) || ' ' || ${word()} || ' ' || i AS name,
                         CASE WHEN random() < 0.6 THEN ${words('3 + floor(random() * 10)::int', 'i')} END AS description,
                         ${props} AS props,
                         ${manifest} AS man,
                         CASE WHEN random() < 0.1 THEN 2 + floor(random() * 2)::int END AS repl,
                         CASE WHEN random() < 0.1 THEN '["default", "archive"]'::jsonb ELSE '["default"]'::jsonb END AS classes,
                         CASE WHEN r7 < 0.01 THEN now() - random() * interval '10 days'
                              WHEN r7 < 0.012 THEN now() + random() * interval '60 days' END AS trash
                    FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5,
                                 random() AS r6, random() AS r7,
                                 ${this.time(`i::float8 / ${count}`, 0.1, 0.9)} AS t,
                                 m, sz1, sz2, fname,
                                 CASE WHEN owner_pick < ${homeShare} THEN ${userUuid(c, `1 + floor(random() * ${U})::int`)}
                                      WHEN owner_pick < ${homeShare + hot.share} THEN ${groupUuid(c, `1 + floor(random() * ${Math.max(1, hot.projects)})::int`)}
                                      ELSE ${groupUuid(c, `1 + floor(random() * greatest(1, floor(${P} * i::float8 / ${count})))::int`)} END AS owner,
                                 ${userUuid(c, `1 + floor(random() * ${U})::int`)} AS mod_by
                            FROM (SELECT i, m, owner_pick,
                                         -- sizes and file name are functions of m: copies have equal manifests
                                         1 + ('x' || substr(h, 1, 7))::bit(28)::int::bigint * 4 AS sz1,
                                         CASE WHEN get_byte(decode(h, 'hex'), 4) < 77
                                              THEN 1 + ('x' || substr(h, 11, 6))::bit(24)::int::bigint ELSE 0 END AS sz2,
                                         v.w[1 + get_byte(decode(h, 'hex'), 5) % cardinality(v.w)] || '_' || m
                                           || (ARRAY['.fastq.gz','.bam','.vcf.gz','.tsv','.json','.png'])[1 + get_byte(decode(h, 'hex'), 6) % 6] AS fname
                                    FROM (SELECT i, owner_pick, m, md5('m' || m) AS h
                                            FROM (SELECT i, random() AS owner_pick,
                                                         -- 10 % are copies of an earlier collection's manifest (same PDH)
                                                         CASE WHEN random() < 0.1 THEN 1 + floor(random() * i)::bigint ELSE i END AS m
                                                    FROM generate_series(${from}, ${to}) i) s3) s2, vocab v) s1, vocab v) s0,
                         vocab v) s`);
        return r.rowCount;
      });
    }
    return n;
  }

  /**
   * Inserts up to `limit` permission links from `candidates` (a SELECT of tail, head, name),
   * one per (tail, head) not already linked, owned by the system user as the server makes them.
   */
  async permissionLinks(tag, candidates, limit) {
    const c = this.c;
    const b = this.builtIns;
    if (limit <= 0) return 0;
    return this.step(`links: ${tag}`, async () => {
      const r = await this.q(`
        INSERT INTO links (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, link_class, name,
                           tail_uuid, head_uuid, properties)
        SELECT ${uuidSql(c, 'o0j2j', `'${tag}:' || n`)}, '${b.systemUser}', t, t, '${b.systemUser}', 'permission', name,
               tail, head, '{}'
          FROM (SELECT row_number() OVER () AS n, tail, head, name,
                       ${this.time('random()', 0.1, 0.9)} AS t
                  FROM (SELECT DISTINCT ON (tail, head) tail, head, name
                          FROM (${candidates}) x
                         WHERE tail <> head
                           AND NOT EXISTS (SELECT 1 FROM links l WHERE l.link_class = 'permission'
                                              AND l.tail_uuid = x.tail AND l.head_uuid = x.head)
                         ORDER BY tail, head, random()) d
                 ORDER BY random()
                 LIMIT ${limit}) s`);
      return r.rowCount;
    });
  }

  /**
   * group_ancestors as its triggers keep it, rebuilt whole: the generator may insert children
   * before their parents, which the insert trigger cannot chain (hiding by trash is derived
   * from it through the hidden_groups view).
   */
  async groupAncestors() {
    return this.step('group_ancestors', async () => {
      await this.q(`TRUNCATE group_ancestors`);
      const r = await this.q(`
        INSERT INTO group_ancestors (group_uuid, ancestor_uuid)
        WITH RECURSIVE up(uuid, anc) AS (
          SELECT uuid, owner_uuid FROM groups
          UNION
          SELECT up.uuid, g.owner_uuid FROM up JOIN groups g ON g.uuid = up.anc
        )
        SELECT uuid, uuid FROM groups UNION SELECT uuid, anc FROM up`);
      return r.rowCount;
    });
  }

  /**
   * VACUUM (ANALYZE) — statistics and visibility map, as autovacuum would leave them — of the
   * given tables, else of every table.
   */
  async vacuumAnalyze(tables = null, label = 'vacuum analyze') {
    return this.step(label, async () => {
      await this.q(`VACUUM (ANALYZE)${tables ? ' ' + tables.join(', ') : ''}`);
    });
  }
}

/** The tables generation fills, but materialized_permissions (see fillPermissions). */
export const DATA_TABLES = [
  'users',
  'groups',
  'collections',
  'links',
  'api_clients',
  'api_client_authorizations',
  'group_ancestors',
];

/**
 * materialized_permissions from scratch: recomputeAllPermissions of apps/core inside one
 * transaction, on the core's own Db (node-postgres pool), with the server's session settings
 * unless `settings` (SET LOCAL name = value, e.g. {enable_nestloop: 'off'}) say otherwise.
 * `timeoutMs` bounds it (statement_timeout): a recompute that runs out of time is rolled back
 * and reported as { timedOut: true }.
 *
 * Its plan depends on the planner's estimates: the walk's start is estimated at a few rows,
 * so its recursive step gets a nested loop that scans the permission links once per walked
 * row (links' branch of the permission_edges view is not flattened inside the recursive CTE,
 * so no index on tail_uuid can be used). Measured: 1 % scale 6.3 s instead of 0.13 s; the
 * lists data (200,000 groups, 3,840 links) 117 s. Generation therefore fills the table with
 * enable_nestloop = off, then times the stock function separately (with a timeout).
 */
export async function recomputePermissions(
  databaseUrl,
  clusterId,
  { settings = {}, timeoutMs = 0 } = {},
) {
  const { openDatabase } = dist('apps/core/dist/index.js');
  const { recomputeAllPermissions } = dist('apps/core/dist/permissions/materialize.js');
  const opened = await openDatabase(databaseUrl);
  const t0 = performance.now();
  try {
    await opened.db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(settings)) {
        await tx.query({ text: `SELECT set_config($1, $2, true)`, values: [name, String(value)] });
      }
      if (timeoutMs > 0) {
        await tx.query({
          text: `SELECT set_config('statement_timeout', $1, true)`,
          values: [String(Math.round(timeoutMs))],
        });
      }
      await recomputeAllPermissions(tx, clusterId);
    });
    const ms = performance.now() - t0;
    const { rows } = await opened.db.query({
      text: 'SELECT count(*)::bigint AS n FROM materialized_permissions',
      values: [],
    });
    return { ms, rows: Number(rows[0].n), timedOut: false, settings };
  } catch (e) {
    if (e?.code === '57014')
      return { ms: performance.now() - t0, rows: null, timedOut: true, settings };
    throw e;
  } finally {
    await opened.db.close();
  }
}

/**
 * Fills materialized_permissions (enable_nestloop = off, see recomputePermissions), analyzes
 * it, then times recomputeAllPermissions as shipped on the populated, analyzed table — a full
 * recompute of a live cluster — within `timeoutMs`.
 */
export async function fillPermissions(gen, databaseUrl, clusterId, timeoutMs) {
  const fill = await gen.step(
    'materialized_permissions: fill (recomputeAllPermissions, enable_nestloop=off)',
    () => recomputePermissions(databaseUrl, clusterId, { settings: { enable_nestloop: 'off' } }),
  );
  await gen.vacuumAnalyze(['materialized_permissions'], 'vacuum analyze materialized_permissions');
  const stock = await gen.step(
    'materialized_permissions: recomputeAllPermissions as shipped (timed)',
    () => recomputePermissions(databaseUrl, clusterId, { timeoutMs }),
  );
  if (!stock.timedOut)
    await gen.vacuumAnalyze(
      ['materialized_permissions'],
      'vacuum analyze materialized_permissions',
    );
  return { fill, stock, rows: fill.rows, timeoutMs };
}

/** Row counts and on-disk sizes (table + indexes) of the main tables. */
export async function tableSizes(client) {
  const { rows } = await client.query(`
    SELECT c.relname AS table, c.reltuples::bigint AS rows_estimate,
           pg_total_relation_size(c.oid) AS total_bytes, pg_indexes_size(c.oid) AS index_bytes
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r'
       AND c.relname IN ('users','groups','collections','links','materialized_permissions','group_ancestors','api_client_authorizations')
     ORDER BY pg_total_relation_size(c.oid) DESC`);
  const exact = {};
  for (const r of rows) {
    const { rows: n } = await client.query(`SELECT count(*)::bigint AS n FROM ${r.table}`);
    exact[r.table] = Number(n[0].n);
  }
  return rows.map((r) => ({
    table: r.table,
    rows: exact[r.table],
    totalMB: Math.round(Number(r.total_bytes) / 1048576),
    indexMB: Math.round(Number(r.index_bytes) / 1048576),
  }));
}
