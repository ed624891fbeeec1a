import { ApiError, SvcClient } from '@svc/client';

async function main(uuid: string) {
  const svc = new SvcClient();
  try {
    const c = await svc.api.collections.get({ uuid });
    console.log(c.name);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    // status, errors (the server's messages), errorToken and requestId
    console.log(`${err.status} ${err.errors.join('; ')}`);
  } finally {
    await svc.close();
  }
}

main(process.argv[2] ?? '').catch((err) => {
  console.error(err);
  process.exit(1);
});
