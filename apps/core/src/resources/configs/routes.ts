import { publicConfig } from '@svc/config';
import type { Handler } from '../../call';

/** `GET /svc/v1/config`: the secret-free part of the configuration (discovery.md §5). */
export const getConfig: Handler = async (call) => ({ body: publicConfig(call.cluster) });
