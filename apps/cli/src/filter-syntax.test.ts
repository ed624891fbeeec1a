import { collections, containerRequests } from '@svc/contract';
import { CliError } from './exit-codes';
import { parseFilter } from './filter-syntax';

describe('--filter syntax', () => {
  it.each([
    ['name like %x%', [['name', 'like', '%x%']]],
    ['name=abc', [['name', '=', 'abc']]],
    ['replication_desired >= 2', [['replication_desired', '>=', 2]]],
    ['name = "2"', [['name', '=', '2']]],
    ['name != null', [['name', '!=', null]]],
    ['name NOT  IN a, b', [['name', 'not in', ['a', 'b']]]],
    ['uuid in ["x","y"]', [['uuid', 'in', ['x', 'y']]]],
    ['properties.lab = east side', [['properties.lab', '=', 'east side']]],
    ['properties exists lab', [['properties', 'exists', 'lab']]],
    ['any ilike %genome%', [['any', 'ilike', '%genome%']]],
    ['owner_uuid is_a svc#group', [['owner_uuid', 'is_a', 'svc#group']]],
    ['["name","=","x"]', [['name', '=', 'x']]],
    ['[["name","=","x"],"(a > b)"]', [['name', '=', 'x'], '(a > b)']],
    [
      '(replication_desired > replication_confirmed)',
      ['(replication_desired > replication_confirmed)'],
    ],
  ])('%s', (text, expected) => {
    expect(parseFilter(text, collections)).toEqual(expected);
  });

  it('takes container.<attr> on container requests only', () => {
    expect(parseFilter('container.state = Complete', containerRequests)).toEqual([
      ['container.state', '=', 'Complete'],
    ]);
    expect(() => parseFilter('container.state = Complete', collections)).toThrow(
      "collections have no attribute 'container.state'",
    );
  });

  it.each([
    ['name', "bad filter 'name': expected '<attribute> <operator> <value>'"],
    ['name likes x', "bad filter 'name likes x': expected"],
    ['nmae = x', "bad filter 'nmae = x': collections have no attribute 'nmae'"],
    ['name.x = 1', "bad filter 'name.x = 1': collections have no attribute 'name.x'"],
    ['[1,', "bad filter '[1,': not valid JSON"],
  ])('refuses %s as a usage error', (text, message) => {
    let err: unknown;
    try {
      parseFilter(text, collections);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).message).toContain(message);
  });
});
