import { PrismaClient } from '../generated/prisma/client';
import type { OpenedDb } from './open-db';

/**
 * A Prisma client over the core's own connections. Hot paths use prepared SQL through `Db`;
 * Prisma serves typed one-off work such as seeding the built-in objects.
 */
export async function openPrisma(opened: OpenedDb): Promise<PrismaClient> {
  type Adapter = NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;
  const adapter = (await opened.prismaAdapter()) as Adapter;
  return new PrismaClient({ adapter });
}
