/** `text` safe inside a Markdown table cell of the generated docs: a literal `|` would end the cell, so it is escaped. */
export function tableCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
