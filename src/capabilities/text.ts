/** Helpers for the `render: "text"` forms: one `- ` bullet per line, no Markdown tables. */
export function bullets(lines: Iterable<string>): string {
  const out: string[] = [];
  for (const line of lines) out.push(`- ${oneLine(line)}`);
  return out.join('\n');
}

/** A bullet holds one line: newlines inside a value would start a line that is no bullet. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim();
}
