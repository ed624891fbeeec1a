import type { LoginIdentity } from '@svc/contract';

export type { LoginIdentity };

export type PasswordCheck = (username: string, password: string) => Promise<LoginIdentity | null>;
