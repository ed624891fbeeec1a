import { statement, type Db } from '../../db/db';

/** How many merges with redirect a token or login follows at most (docs/api/more-resources.md §5.6). */
const MAX_REDIRECTS = 15;

/**
 * The user a merged user's tokens and logins act as: the end of its chain of merges with
 * redirect (the user itself when it was never merged).
 */
export async function redirectedUser(db: Db, uuid: string): Promise<string> {
  let current = uuid;
  for (let i = 0; i < MAX_REDIRECTS; i++) {
    const { rows } = await db.query<{ redirect_to_user_uuid: string | null }>(
      statement(
        'SELECT redirect_to_user_uuid FROM users WHERE uuid = $1',
        [current],
        'user_redirect',
      ),
    );
    const next = rows[0]?.redirect_to_user_uuid;
    if (!next) return current;
    current = next;
  }
  return current;
}
