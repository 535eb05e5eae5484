/** A Markdown file split into its YAML front matter and the text after it. */
export interface FrontMatterSplit {
  yaml: string;
  body: string;
  /** Lines before the YAML text (the opening `---`), so YAML positions map to file lines. */
  lineOffset: number;
}

/** Splits `---\n<yaml>\n---\n<body>`; undefined when the file does not open with front matter. */
export function splitFrontMatter(text: string): FrontMatterSplit | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return undefined;
  return {
    yaml: lines.slice(1, end).join('\n'),
    body: lines
      .slice(end + 1)
      .join('\n')
      .replace(/^\n+/, ''),
    lineOffset: 1,
  };
}
