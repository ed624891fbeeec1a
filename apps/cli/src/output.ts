import Table from 'cli-table3';

type Row = Record<string, unknown>;

/** A value in a table cell: text as it is, nothing for null, JSON for the rest. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Plain aligned columns, no borders: easy to read, easy to `grep` and `cut`. */
function plainTable(head: string[]): Table.Table {
  const none = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '' };
  const chars = {
    ...none,
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  };
  return new Table({
    head,
    chars,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}

/** Tables for people, JSON for scripts (`--json`); messages and progress on stderr. */
export class Output {
  constructor(
    private readonly stdout: NodeJS.WritableStream,
    private readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream,
    readonly json: boolean,
  ) {}

  /** One object: JSON, or one attribute per line. */
  object(value: Row): void {
    if (this.json) return this.line(JSON.stringify(value, null, 2));
    const table = plainTable([]);
    for (const [k, v] of Object.entries(value)) table.push([k, cell(v)]);
    this.table(table);
  }

  /** Rows under the given columns: a JSON array, or a table. */
  rows(columns: string[], rows: Row[]): void {
    if (this.json) return this.line(JSON.stringify(rows, null, 2));
    const table = plainTable(columns);
    for (const row of rows) table.push(columns.map((c) => cell(row[c])));
    this.table(table);
  }

  /** Without the padding of each last column. */
  private table(table: Table.Table): void {
    const lines = table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd());
    this.line(lines.join('\n'));
  }

  line(text: string): void {
    this.stdout.write(`${text}\n`);
  }

  /** A note for people (never mixed into what scripts read). */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** Progress of a long listing, on one line: shown only on a terminal. */
  progress(text: string | null): void {
    const err = this.stderr as NodeJS.WriteStream;
    if (!err.isTTY) return;
    err.write(text === null ? '\r\x1b[K' : `\r\x1b[K${text}`);
  }
}
