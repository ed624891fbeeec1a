export * from './parse';
export * from './encode';
