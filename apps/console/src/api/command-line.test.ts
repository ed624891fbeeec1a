import { joinCommand, splitCommand } from './command-line';

describe('the run form command line', () => {
  it.each([
    ['echo hi', ['echo', 'hi']],
    ["sh -c 'echo hi > /out/x; sleep 1'", ['sh', '-c', 'echo hi > /out/x; sleep 1']],
    ['a "b \\"c\\" d" e\\ f', ['a', 'b "c" d', 'e f']],
    ['  spaced   out  ', ['spaced', 'out']],
    ["empty '' arg", ['empty', '', 'arg']],
  ])('splits %s', (line, args) => {
    expect(splitCommand(line)).toEqual(args);
    expect(splitCommand(joinCommand(args))).toEqual(args);
  });

  it('refuses an unclosed quote', () => {
    expect(() => splitCommand("echo 'hi")).toThrow('unclosed single quote');
  });
});
