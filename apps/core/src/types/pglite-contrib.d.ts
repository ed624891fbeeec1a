// The extension modules are exported only through package "exports", which TypeScript's node10
// resolution does not read; they resolve at run time.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  export const pg_trgm: import('@electric-sql/pglite').Extension;
}
