import { propertiesProblem } from './check';
import { parseVocabulary } from './parse';

/** The example vocabulary of docs/api/more-resources.md §13. */
const EXAMPLE = JSON.stringify({
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
});

describe('vocabulary files', () => {
  it('parses the example, and an empty file as the empty vocabulary', () => {
    expect(Object.keys(parseVocabulary(EXAMPLE).tags)).toEqual(['IDTAGIMPORTANCE', 'IDTAGCOMMENT']);
    expect(parseVocabulary('  \n')).toEqual({ strictTags: false, tags: {} });
  });

  it.each([
    ['{"tags": ', /^invalid JSON format: /],
    ['[1]', /^JSON data provided doesn't match Vocabulary format: /],
    [
      '{"tags": {"A": {"labels": [{"label": "x"}], "labels": []}}}',
      'duplicate JSON key "tags.A.labels"',
    ],
    ['{"strict_tags": true}', 'vocabulary is strict but no tags are defined'],
    ['{"tags": {"svc:x": {}}}', 'tag key "svc:x" is reserved'],
    ['{"tags": {"type": {}}}', 'tag key "type" is reserved'],
    ['{"tags": {"A": {}, "a": {}}}', 'duplicate tag key "a"'],
    ['{"tags": {"A": {"labels": [{"label": "B"}]}, "B": {}}}', 'duplicate tag key "B"'],
    [
      '{"tags": {"A": {}, "B": {"labels": [{"label": "a"}]}}}',
      'tag label "a" for key "B" already seen as a tag key or label',
    ],
    [
      '{"tags": {"A": {"strict": true}}}',
      'tag key "A" is configured as strict but doesn\'t provide values',
    ],
    ['{"tags": {"A": {"values": {"X": {}, "x": {}}}}}', 'duplicate tag value "x" for tag "A"'],
    [
      '{"tags": {"A": {"values": {"X": {"labels": [{"label": "L"}]}, "Y": {"labels": [{"label": "l"}]}}}}}',
      'tag value label "l" for pair ("A":"Y") already seen on value "X"',
    ],
  ])('refuses %s', (text, message) => {
    expect(() => parseVocabulary(text)).toThrow(message);
  });
});

describe('properties under the example vocabulary', () => {
  const v = parseVocabulary(EXAMPLE);
  it.each([
    [{ IDTAGIMPORTANCE: 'IDVALHIGH' }, null],
    [{ IDTAGCOMMENT: 'any text' }, null],
    [{ Species: 'cat' }, null],
    [{ 'svc:anything': 5, username: ['x'] }, null],
    [{ IDTAGIMPORTANCE: ['IDVALHIGH', 'IDVALLOW'] }, null],
    [
      { Priority: 'IDVALHIGH' },
      'tag key "Priority" is an alias, must be provided as "IDTAGIMPORTANCE"',
    ],
    [
      { IDTAGIMPORTANCE: 'high' },
      'tag value "high" for key "IDTAGIMPORTANCE" is an alias, must be provided as "IDVALHIGH"',
    ],
    [
      { IDTAGIMPORTANCE: 'Critical' },
      'tag value "Critical" is not valid for key "IDTAGIMPORTANCE"',
    ],
    [
      { IDTAGIMPORTANCE: 3 },
      'value type for tag key "IDTAGIMPORTANCE" was number, but expected a string or list of strings',
    ],
    [
      { IDTAGCOMMENT: null },
      'value type for tag key "IDTAGCOMMENT" was null, but expected a string or list of strings',
    ],
    [
      { IDTAGIMPORTANCE: ['IDVALHIGH', {}] },
      'value list element type for tag key "IDTAGIMPORTANCE" was object, but expected a string',
    ],
    // Keys in code-point order: "IDTAGCOMMENT" < "Priority".
    [
      { Priority: 'x', IDTAGCOMMENT: 1 },
      'value type for tag key "IDTAGCOMMENT" was number, but expected a string or list of strings',
    ],
  ])('%j', (properties, problem) => {
    expect(propertiesProblem(v, properties)).toBe(problem);
  });

  it('with strict_tags, refuses keys it does not define', () => {
    const strict = parseVocabulary('{"strict_tags": true, "tags": {"A": {}}}');
    expect(propertiesProblem(strict, { B: 'x' })).toBe(
      'tag key "B" is not defined in the vocabulary',
    );
    expect(propertiesProblem(strict, { A: 'x', 'svc:y': 1 })).toBeNull();
  });
});
