export * from './params';
export * from './ops';
export * from './table';
export * from './types';
export * from './bind';
export * from './filters';
export type { HashList, UserObject } from './users';
export type { ComputedPermission, Login } from './access';
export type { ObjectGraph, Vocabulary, VocabularyEntry } from './system';
