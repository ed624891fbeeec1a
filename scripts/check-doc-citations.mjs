// Checks that every citation of the API rules in the sources names a section that exists.
//
// Code comments cite the rules as `docs/api/<file>.md §<n>` (older comments: `<file>.md §<n>`),
// often several at once: `auth.md §9.3, §9.6, §11`, `lists-and-filters.md §5–§15`. Each cited
// file must exist under docs/api/ and have a heading that starts with that number
// (`## 6. Trash, untrash and delete`, `### 9.2 …`). A range checks every whole section in it.
//
//   node scripts/check-doc-citations.mjs [--require-prefix] [path …]
//
// Paths default to apps, packages and tests (files tracked by git). --require-prefix also reports
// citations written without `docs/api/`. Lists every citation that does not resolve and exits 1
// if there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = join('docs', 'api');

const SECTION = String.raw`§(\d+(?:\.\d+)*)`;
const CITATION = new RegExp(String.raw`(docs/api/)?\b([A-Za-z][\w-]*)\.md ${SECTION}`, 'g');
const FOLLOWER = new RegExp(String.raw`^(\s*(?:,|and|or|to|–|-)\s*)${SECTION}`);
const HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)(?:\.|\s|$)/;

const args = process.argv.slice(2);
const requirePrefix = args.includes('--require-prefix');
const paths = args.filter((arg) => !arg.startsWith('--'));
const files = trackedFiles(paths.length > 0 ? paths : ['apps', 'packages', 'tests']);

const sectionsByDoc = new Map();
const problems = [];
let checked = 0;
for (const file of files) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, index) => {
    for (const citation of citationsIn(line)) {
      checked += 1;
      const problem = problemOf(citation);
      if (problem) problems.push(`${file}:${index + 1}: ${citation.text}: ${problem}`);
    }
  });
}

for (const problem of problems) console.log(problem);
console.log(
  problems.length === 0
    ? `${checked} citations in ${files.length} files: every one names an existing section of ${docsDir}/.`
    : `${problems.length} of ${checked} citations do not resolve.`,
);
process.exit(problems.length === 0 ? 0 : 1);

/** Files tracked by git under the given paths, text sources only. */
function trackedFiles(under) {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...under], { cwd: root });
  return out
    .toString('utf8')
    .split('\0')
    .filter((file) => file !== '' && !/\.(png|jpe?g|gif|tar|gz|zip|lock)$/.test(file));
}

/** Every `<file>.md §…` on a line, with the sections listed after it. */
function* citationsIn(line) {
  for (const match of line.matchAll(CITATION)) {
    const [text, prefix, name, first] = match;
    let rest = line.slice(match.index + text.length);
    const sections = [first];
    const ranges = [];
    let followed = text;
    for (let next = FOLLOWER.exec(rest); next; next = FOLLOWER.exec(rest)) {
      const separator = next[1].trim();
      if (['–', '-', 'to'].includes(separator)) ranges.push([sections.at(-1), next[2]]);
      sections.push(next[2]);
      followed += next[0];
      rest = rest.slice(next[0].length);
    }
    yield { text: followed, prefixed: Boolean(prefix), doc: name.toLowerCase(), sections, ranges };
  }
}

/** Why a citation does not resolve, or undefined when it does. */
function problemOf({ prefixed, doc, sections, ranges }) {
  if (requirePrefix && !prefixed) return `not written as ${docsDir}/${doc}.md`;
  const known = sectionsOf(doc);
  if (!known) return `${docsDir}/${doc}.md does not exist`;
  const wanted = new Set(sections);
  for (const [from, to] of ranges) {
    if (!/^\d+$/.test(from) || !/^\d+$/.test(to)) continue;
    for (let n = Number(from); n <= Number(to); n += 1) wanted.add(String(n));
  }
  const missing = [...wanted].filter((section) => !known.has(section));
  if (missing.length === 0) return undefined;
  return `no heading ${missing.map((section) => `§${section}`).join(', ')} in ${docsDir}/${doc}.md`;
}

/** The section numbers that head a document of docs/api, or undefined when there is none. */
function sectionsOf(doc) {
  if (!sectionsByDoc.has(doc)) {
    const path = join(root, docsDir, `${doc}.md`);
    sectionsByDoc.set(
      doc,
      existsSync(path) ? headingNumbers(readFileSync(path, 'utf8')) : undefined,
    );
  }
  return sectionsByDoc.get(doc);
}

function headingNumbers(markdown) {
  const numbers = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    if (heading) numbers.add(heading[1]);
  }
  return numbers;
}
