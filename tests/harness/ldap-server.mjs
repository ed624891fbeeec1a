// A small LDAP directory (npm ldapjs server API) for the login tests, in a child process.
//
// Environment:
//   LDAP_BASE           suffix served, e.g. dc=example,dc=com
//   LDAP_ENTRIES        JSON [{dn, attributes: {objectClass, uid, mail, userPassword, …}}]
//   LDAP_BIND_DN / LDAP_BIND_PASSWORD  the search-bind account; when set, only a connection
//                       bound as it may search (as a directory that refuses anonymous search).
// Prints one JSON line {"url": "ldap://127.0.0.1:<port>"} on stdout when ready.
// Plain LDAP only: ldapjs has no StartTLS.
import ldap from 'ldapjs';

const env = process.env;
const base = env.LDAP_BASE ?? 'dc=example,dc=com';
// Attribute names are case-insensitive in LDAP; ldapjs looks requested ones up in lowercase.
const entries = JSON.parse(env.LDAP_ENTRIES ?? '[]').map((e) => ({
  dn: e.dn,
  attributes: Object.fromEntries(
    Object.entries(e.attributes).map(([k, v]) => [k.toLowerCase(), v]),
  ),
}));
const bindDn = env.LDAP_BIND_DN ?? '';
const bindPassword = env.LDAP_BIND_PASSWORD ?? '';

/** DNs compared as the directory would: case and spaces after commas do not matter. */
const norm = (dn) => String(dn).toLowerCase().replace(/,\s+/g, ',');
const under = (dn, suffix) => norm(dn) === norm(suffix) || norm(dn).endsWith(`,${norm(suffix)}`);
const valuesOf = (v) => (Array.isArray(v) ? v : [v]).map(String);

/**
 * Attribute values written as ldapjs keeps assertion values after decoding a filter: RFC 4515
 * escaped (`*` as `\2a`). Matching escaped against escaped makes `(uid=a\2a)` find "a*".
 */
const escapedValues = (attributes) =>
  Object.fromEntries(
    Object.entries(attributes).map(([k, v]) => [
      k,
      valuesOf(v).map((s) =>
        s.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
      ),
    ]),
  );

const server = ldap.createServer();

server.bind(base, (req, res, next) => {
  const dn = norm(req.dn.toString());
  const password = req.credentials;
  const entry = entries.find((e) => norm(e.dn) === dn);
  const ok =
    (bindDn !== '' && dn === norm(bindDn) && password === bindPassword) ||
    (entry && password !== '' && valuesOf(entry.attributes.userpassword ?? []).includes(password));
  if (!ok) return next(new ldap.InvalidCredentialsError());
  res.end();
  // Calling next() lets ldapjs record the connection's bind DN, which the search handler checks.
  return next();
});

server.search(base, (req, res, next) => {
  if (bindDn !== '' && norm(req.connection.ldap.bindDN.toString()) !== norm(bindDn)) {
    return next(new ldap.InsufficientAccessRightsError());
  }
  // ldapjs compares requested attribute names with lowercased entry names: ask in lowercase.
  res.attributes = res.attributes.map((name) => name.toLowerCase());
  for (const entry of entries) {
    if (
      !under(entry.dn, req.dn.toString()) ||
      !req.filter.matches(escapedValues(entry.attributes), false)
    )
      continue;
    const { userpassword: _secret, ...attributes } = entry.attributes;
    res.send({ dn: entry.dn, attributes });
  }
  return res.end();
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `ldap://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
