import { defineConfig } from 'prisma/config';

// `prisma generate` needs no database: an unset DATABASE_URL must not fail it.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
