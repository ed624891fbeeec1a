/**
 * A command typed on one line, as a shell would split it into arguments: spaces separate,
 * single quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash escapes
 * the next character. Nothing is expanded: the container runs the arguments as they are.
 */
export function splitCommand(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let started = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote === '"' ? 'double' : 'single'} quote`);
  if (started) args.push(current);
  return args;
}

/** The inverse: arguments on one line, quoted where a shell would need it. */
export const joinCommand = (args: readonly string[]): string =>
  args
    .map((a) => (a !== '' && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
