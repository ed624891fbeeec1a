import { UnprocessableError } from '@svc/errors';
import type { Row } from '../common/row';
import type { WriteContext } from '../common/rules';
import { applyDefinition } from './rules';

/** name and description after a save of `input` onto `row`, or the 422 message. */
function save(input: Record<string, unknown>, row: Row = {}): Row | string {
  const next: Row = { ...row, ...input };
  try {
    applyDefinition({ input } as unknown as WriteContext, next);
  } catch (e) {
    if (!(e instanceof UnprocessableError)) throw e;
    return e.messages.join('; ');
  }
  return { name: next['name'] ?? null, description: next['description'] ?? null };
}

const DEFINITION = 'name: From def\ndescription: Described\nclass: Workflow\n';

describe('workflow definitions (other-resources.md §2)', () => {
  it.each<[string, Record<string, unknown>, Row, Row]>([
    [
      'fill in name and description',
      { definition: DEFINITION },
      {},
      { name: 'From def', description: 'Described' },
    ],
    [
      'leave a given name',
      { definition: DEFINITION, name: 'mine' },
      {},
      { name: 'mine', description: 'Described' },
    ],
    [
      'leave a given null description',
      { definition: DEFINITION, description: null },
      {},
      { name: 'From def', description: null },
    ],
    [
      'replace stored values on update',
      { definition: DEFINITION },
      { name: 'old', description: 'old' },
      { name: 'From def', description: 'Described' },
    ],
    [
      'take only strings',
      { definition: 'name: 5\ndescription: [a]\n' },
      {},
      { name: null, description: null },
    ],
    ['take only a mapping', { definition: '- name: x\n' }, {}, { name: null, description: null }],
    ['accept an empty definition', { definition: '' }, {}, { name: null, description: null }],
    [
      'change nothing without a definition',
      { name: 'n' },
      { description: 'd' },
      { name: 'n', description: 'd' },
    ],
  ])('%s', (_rule, input, row, expected) => {
    expect(save(input, row)).toEqual(expected);
  });

  it('must parse as YAML: 422 "definition is not valid yaml: <detail>"', () => {
    expect(save({ definition: 'a: [unclosed' })).toMatch(/^definition is not valid yaml: \S/);
  });
});
