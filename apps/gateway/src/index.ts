export { buildGatewayListener } from './app';
export { startGateway, gatewayLogger, type RunningGateway } from './start-gateway';
export { blockWriteLimits } from './blocks/write-limit';
export { CONSOLE_DIR, CONSOLE_CSP } from './console';
