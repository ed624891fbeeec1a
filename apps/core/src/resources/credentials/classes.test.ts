import { classProblems } from './classes';

describe('credential classes (docs/api/more-resources.md §7.1)', () => {
  it.each([
    ['any free text', [], []],
    ['svc:aws_access_key', ['s3://bucket-1', 's3://*'], []],
    ['svc:other', [], ['credential_class svc:other is not implemented']],
    [
      'aws_access_key',
      [],
      [
        'credential_class aws_access_key conflicts with reserved credential class svc:aws_access_key',
      ],
    ],
    ['svc:aws_access_key', [], ['scopes cannot be blank for credential class svc:aws_access_key']],
    [
      'svc:aws_access_key',
      ['s3://okay', 'http://x', 's3://A'],
      ['scopes not valid for credential class svc:aws_access_key: http://x, s3://A'],
    ],
  ])('%s with scopes %j', (klass, scopes, problems) => {
    expect(classProblems(klass, scopes)).toEqual(problems);
  });
});
