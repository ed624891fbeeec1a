export * from './parse';
