import { ApiError, UnprocessableError, makeErrorToken, toErrorBody } from './index';

describe('error body', () => {
  it('has the contract shape', () => {
    const body = toErrorBody(new UnprocessableError(['a', 'b']));
    expect(body.errors).toEqual(['a', 'b']);
    expect(body.error_token).toMatch(/^\d+\+[0-9a-f]{8}$/);
  });

  it('puts the unix time first in the token', () => {
    expect(makeErrorToken(new Date(1_700_000_000_500))).toMatch(/^1700000000\+/);
  });

  it('never has an empty message list', () => {
    expect(new ApiError(500, []).messages).toEqual(['Internal server error']);
  });
});
