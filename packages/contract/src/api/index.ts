export * from './params';
export * from './ops';
export * from './table';
export * from './types';
export * from './bind';
export * from './filters';
